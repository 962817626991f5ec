/*
 * ping.c - a small protocol probe for probetest's own tests: it connects
 * to config "addr", optionally sends "AUTH ${secret:<config secret>}",
 * sends PING and reads one line. "+PONG" is available, a "-" line is
 * unavailable with the server's line as the reason (the host has redacted
 * any secret in it), refused is unavailable, and a timeout or a closed
 * connection raise. With config "leak" it logs the environment variable
 * TOKEN, which no probe should do, so that the secret rule has something
 * to catch.
 */
#include "gate.h"

static char addr[256], secret[64], line[512];

static int fail_with(const char *why) {
	gate_reason_str(why);
	return GATE_ERROR;
}

GATE_EXPORT(probe) int probe(void) {
	int32_t n = gate_config_str("addr", addr, sizeof addr);
	if (n <= 0 || n > (int32_t)sizeof addr)
		return fail_with("config addr is not set");
	if (gate_config_str("leak", 0, 0) >= 0) {
		int32_t v = gate_env_str("TOKEN", line, sizeof line);
		if (v > 0 && v <= (int32_t)sizeof line)
			gate_log(GATE_LOG_INFO, line, (uint32_t)v);
	}
	int32_t h = gate_connect(addr, (uint32_t)n, 0, 0);
	if (h == GATE_DENIED)
		return GATE_UNAVAILABLE;
	if (h == GATE_REFUSED) {
		gate_reason_str("connection refused");
		return GATE_UNAVAILABLE;
	}
	if (h < 0)
		return fail_with("connect failed");

	int32_t s = gate_config_str("secret", secret, sizeof secret);
	if (s > 0 && s <= (int32_t)sizeof secret) {
		gate_sb b;
		gate_sb_init(&b, line, sizeof line);
		gate_sb_puts(&b, "AUTH ${secret:");
		gate_sb_put(&b, secret, (uint32_t)s);
		gate_sb_puts(&b, "}\r\n");
		int32_t r = gate_send(h, b.buf, b.len);
		if (r == GATE_DENIED)
			return GATE_UNAVAILABLE;
		if (r < 0)
			return fail_with("AUTH not sent");
	}
	if (gate_send_str(h, "PING\r\n") < 0)
		return fail_with("PING not sent");

	/* Read up to the first "\r\n" of the reply; with AUTH, the second. */
	uint32_t len = 0, want = s > 0 ? 2 : 1, seen = 0, start = 0;
	for (;;) {
		if (len == sizeof line)
			return fail_with("reply too long");
		int32_t got = gate_recv(h, line + len, sizeof line - len, 0);
		if (got == 0)
			return fail_with("connection closed before a reply");
		if (got == GATE_TIMEOUT)
			return fail_with("no reply in time");
		if (got < 0)
			return fail_with("recv failed");
		for (uint32_t i = len; i < len + (uint32_t)got; i++) {
			if (line[i] != '\n')
				continue;
			if (line[start] == '-') {
				gate_reason(line + start, i - start - (line[i - 1] == '\r'));
				return GATE_UNAVAILABLE;
			}
			if (++seen == want) {
				if (i - start >= 5 && line[start] == '+' && line[start + 1] == 'P')
					return GATE_AVAILABLE;
				gate_reason(line + start, i - start);
				return GATE_UNAVAILABLE;
			}
			start = i + 1;
		}
		len += (uint32_t)got;
	}
}
