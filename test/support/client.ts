// The one way tests make an ApiClient: a service on loopback, no retries and a 10 s timeout unless
// the test asks for others, warnings dropped. The caller closes it (tests of the client do).
import { ApiClient, type ClientOptions } from "../../src/http/client.js";

export function testClient(url: string | URL, options: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: new URL(url),
    headers: [],
    timeoutMs: 10_000,
    retries: 0,
    retryBaseMs: 1,
    warn: () => undefined,
    ...options,
  });
}

/** The error a promise is rejected with (the test fails if it resolves). */
export const caught = async (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error("resolved");
    },
    (error: Error) => error,
  );
