#!/usr/bin/env bash
# The pipeline a user would write instead of msgstat: curl per page, jq to CSV, the cursor for the
# next page from the same jq run (written to stderr, so each page is parsed once), and a CSV row per
# message with msgstat's default columns (the last attempt's error fields stand in for msgstat's
# newest failed attempt). Usage: bench/curl-jq.sh <baseUrl> <campaignId> [--compressed]
# With --compressed, curl asks for every coding it knows (deflate, gzip, br, zstd as built) and
# decodes the body itself, as a user on a real network would run it.
set -euo pipefail
base=${1%/}
campaign=$2
curl_options=(-sSf)
if [ "${3:-}" = "--compressed" ]; then curl_options+=(--compressed); fi
page=$(mktemp)
cursor=$(mktemp)
trap 'rm -f "$page" "$cursor"' EXIT

echo "id,recipient,latestStatus,createdAt,attemptCount,lastErrorType,lastErrorCode,batchId,fullMessage"
after=""
while :; do
  url="$base/campaigns/$campaign/messages?limit=1000"
  if [ -n "$after" ]; then url="$url&after=$after"; fi
  curl "${curl_options[@]}" -o "$page" "$url"
  jq -r '(.data[] | [.id, .recipient, .latestStatus, .createdAt, .numAttempts, .messageAttempts[-1].errorType, .messageAttempts[-1].errorCode, .batchId, .fullMessage] | @csv),
         (.pageData | if .hasNextPage then .endCursor | stderr | empty else empty end)' "$page" 2>"$cursor"
  after=""
  IFS= read -r after <"$cursor" || true
  after=${after//\"/}
  if [ -z "$after" ]; then break; fi
done
