/*
 * memcached.c - the standard "memcached" probe (ABI v2).
 *
 * Config: "addr", as gate_connect takes it ("host:port" or "unix:/path");
 * optional "timeout_ms" (default 0: as long as the budget allows),
 * applied to each wait.
 *
 * It sends "version" in the text protocol, which every memcached answers
 * without authentication or state, and reads one reply line:
 *
 *   VERSION x.y.z                        -> available; the reason says
 *                                           "version x.y.z"
 *   SERVER_ERROR out of memory ...       -> raise: the server is up but
 *                                           could not get memory for this
 *                                           request (its read or write
 *                                           buffer), which frees as other
 *                                           work ends
 *   ERROR Too many open connections      -> raise: the server is at its
 *                                           connection limit (-c) and
 *                                           turns new ones away until
 *                                           others close
 *   another SERVER_ERROR, CLIENT_ERROR   -> unavailable, with the server's
 *                                           line (CLIENT_ERROR
 *                                           unauthenticated: it wants
 *                                           authentication, -Y)
 *   anything else                        -> unavailable: is it memcached?
 *   refused, unreachable                 -> unavailable
 *   timed out, reset, closed first       -> raise
 *
 * Every reason starts "memcached ADDR: ", ADDR as configured.
 */
#include "proto.h"

static char addr[512];

/*
 * word_is reports whether s[0..n) starts with word followed by a space or
 * its end.
 */
static int word_is(const char *s, uint32_t n, const char *word) {
	uint32_t w = gate_strlen(word);
	if (n < w)
		return 0;
	for (uint32_t i = 0; i < w; i++)
		if (s[i] != word[i])
			return 0;
	return n == w || s[w] == ' ';
}

/*
 * words_are reports whether s[0..n) starts with word, a space and then
 * text, ASCII case ignored in text: memcached writes "out of memory" and
 * "Out of memory" alike.
 */
static int words_are(const char *s, uint32_t n, const char *word, const char *text) {
	uint32_t w = gate_strlen(word) + 1, m = gate_strlen(text);
	if (n < w + m || !word_is(s, n, word))
		return 0;
	for (uint32_t i = 0; i < m; i++) {
		char a = s[w + i], b = text[i];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return 1;
}

/* say_line sets the reason to msg, then the server's line in parentheses. */
static int say_line(const char *msg, const char *line, uint32_t n, int result) {
	proto_again();
	std_puts(msg);
	std_puts(" (");
	std_put_cut(line, n, 1);
	std_puts(")");
	std_reason();
	return result;
}

static int check(void) {
	int32_t an = proto_config("memcached", "addr", addr, sizeof addr);
	if (an < 0)
		return GATE_ERROR;
	if (an == 0)
		return std_config_error("memcached", "addr", "is not set");
	int32_t timeout_ms = std_timeout("memcached");
	if (timeout_ms < 0)
		return GATE_ERROR;

	proto_target("memcached ", addr, (uint32_t)an);
	int32_t h = gate_connect(addr, (uint32_t)an, 0, timeout_ms);
	if (h <= 0)
		return proto_failed(h, "connecting");

	static const char cmd[] = "version\r\n";
	int32_t r = gate_send(h, cmd, sizeof cmd - 1);
	if (r != (int32_t)sizeof cmd - 1)
		return proto_failed(r < 0 ? r : GATE_CLOSED, "sending");

	const char *line;
	uint32_t n;
	r = proto_line(h, timeout_ms, &line, &n);
	if (r == 0)
		return proto_say("closed the connection before answering", GATE_ERROR);
	if (r < 0)
		return proto_failed(r, "waiting for an answer");
	gate_close(h);

	if (word_is(line, n, "VERSION") && n > 8) {
		proto_again();
		std_puts("version ");
		std_put_cut(line + 8, n - 8, 0);
		std_reason();
		return GATE_AVAILABLE;
	}
	if (words_are(line, n, "SERVER_ERROR", "out of memory") ||
	    words_are(line, n, "ERROR", "too many open connections"))
		return say_line("not ready", line, n, GATE_ERROR);
	if (word_is(line, n, "SERVER_ERROR") || word_is(line, n, "CLIENT_ERROR")) {
		proto_again();
		std_put_cut(line, n, 0);
		std_reason();
		return GATE_UNAVAILABLE;
	}
	return say_line("unexpected answer to version; is it a memcached server?", line, n, GATE_UNAVAILABLE);
}

GATE_EXPORT(probe) int probe(void) {
	proto_start();
	return check();
}
