import net from "node:net";
import { Agent } from "undici";
const srv = net.createServer((s) => {
  s.once("data", () => {
    const body = '{"a":1}';
    s.write("HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n");
    s.write("HTTP/1.1 102 Processing\r\n\r\n");
    s.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
  });
}).listen(0, "127.0.0.1", async () => {
  const port = srv.address().port;
  const agent = new Agent();
  try {
    const r = await agent.request({ origin: `http://127.0.0.1:${port}`, path: "/", method: "GET" });
    console.log(r.statusCode, await r.body.text());
  } catch (e) { console.log("ERR", e.code, e.message); }
  srv.close(); await agent.close();
});
