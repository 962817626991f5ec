// A protocol probe in AssemblyScript, for the SDK's version-2 functions: it
// connects to config "addr", sends "AUTH ${secret:TOKEN}" and PING, and
// reads one line per command. "+PONG" is available; a "-" line is
// unavailable with the server's line as the reason; refused is unavailable
// with the host's words (lastError); a timeout, a closed connection or a
// reply it does not understand is the probe's own failure (ERROR).
import * as gate from "../../asc/gate";

export function probe(): i32 {
  __reset();
  const addr = gate.config("addr");
  if (addr === null) {
    gate.reason("config addr is not set");
    return gate.ERROR;
  }
  const h = gate.connect(addr, 0, 0);
  if (h == gate.DENIED) return gate.UNAVAILABLE;
  if (h == gate.REFUSED) {
    const why = gate.lastError();
    gate.reason(why === null ? "refused" : why);
    return gate.UNAVAILABLE;
  }
  if (h < 0) {
    gate.reason("connect failed");
    return gate.ERROR;
  }
  if (gate.send(h, "AUTH ${secret:TOKEN}\r\nPING\r\n") < 0) {
    gate.reason("not sent");
    return gate.ERROR;
  }
  const buf = new Uint8Array(256);
  let reply = "";
  let lines = 0;
  while (lines < 2) {
    const n = gate.recv(h, buf, 0);
    if (n <= 0) {
      gate.reason(n == gate.TIMEOUT ? "no reply in time" : "connection closed before a reply");
      return gate.ERROR;
    }
    reply += String.UTF8.decodeUnsafe(buf.dataStart, <usize>n);
    lines = reply.split("\r\n").length - 1;
  }
  gate.close(h);
  const got = reply.split("\r\n");
  for (let i = 0; i < 2; i++) {
    if (got[i].startsWith("-")) {
      gate.reason(got[i]);
      return gate.UNAVAILABLE;
    }
  }
  if (got[1] != "+PONG") {
    gate.reason("unexpected reply: " + got[1]);
    return gate.ERROR;
  }
  return gate.AVAILABLE;
}
