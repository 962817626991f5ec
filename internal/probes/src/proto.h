/*
 * proto.h - code shared by the standard protocol probes (redis, postgres,
 * tls) on top of std.h: config values of their own, a whole-number config
 * parser, a buffered reader over gate_recv, and reasons that name the
 * target as the manifest wrote it and say what the host saw.
 *
 * Reasons are built in std.h's one reason buffer. proto_target writes
 * "redis 127.0.0.1:6379: " there and remembers its length, so every later
 * answer starts from that prefix (proto_again) and a failure at any step
 * names the target the same way. Nothing reaches the host until
 * std_reason(): a denial returns with no reason set, because the host
 * already records a better one.
 */
#ifndef GATE_PROTO_H
#define GATE_PROTO_H

#include "std.h"

/* The length of the reason's target prefix (see proto_target). */
static uint32_t proto_prefix_len;

/*
 * proto_config reads config key into buf, which holds cap bytes. It returns
 * the value's length (0 when it is not set), or -1 after setting a reason
 * when the value is longer than cap: a cut-off address or name would
 * silently check something else.
 */
static inline int32_t proto_config(const char *probe, const char *key, char *buf, uint32_t cap) {
	int32_t n = gate_config_str(key, buf, cap);
	if (n < 0)
		return 0;
	if ((uint32_t)n > cap) {
		std_config_error(probe, key, "is too long (");
		std_putu((uint32_t)n);
		std_puts(" bytes; the limit is ");
		std_putu(cap);
		std_puts(")");
		std_reason();
		return -1;
	}
	return n;
}

/*
 * proto_target starts every reason with kind (e.g. "redis ", or "") and the
 * target as the manifest wrote it, then ": ". A very long target is cut so
 * that what follows still fits.
 */
static inline void proto_target(const char *kind, const char *addr, uint32_t n) {
	std_reason_len = 0;
	std_puts(kind);
	std_put_cut(addr, n, 384);
	std_put(": ", 2);
	proto_prefix_len = std_reason_len;
}

/* proto_again drops what follows the target prefix. */
static inline void proto_again(void) {
	std_reason_len = proto_prefix_len;
}

/*
 * proto_say sets the reason to the target prefix and msg and returns
 * result, for one-line answers: return proto_say("timed out", GATE_ERROR).
 */
static inline int proto_say(const char *msg, int result) {
	proto_again();
	std_puts(msg);
	std_reason();
	return result;
}

/* The host's words for the last failure are 512 bytes at most. */
static char proto_err[512];

/* proto_put_last_error appends the host's words for the last failure. */
static inline void proto_put_last_error(void) {
	int32_t n = gate_last_error(proto_err, sizeof proto_err);
	if (n <= 0) {
		std_puts("no details");
		return;
	}
	std_put(proto_err, n > (int32_t)sizeof proto_err ? sizeof proto_err : (uint32_t)n);
}

/* proto_put_status appends " (status N)" for a status the probe does not know. */
static inline void proto_put_status(int32_t r) {
	std_puts(" (status ");
	if (r < 0)
		std_puts("-");
	std_putu(r < 0 ? (uint32_t)0 - (uint32_t)r : (uint32_t)r);
	std_puts(")");
}

/*
 * proto_failed answers a failed gate_connect, gate_send or gate_recv (r <
 * 0); what names the step, as in "timed out <what>": "connecting",
 * "sending", "waiting for an answer". A peer that is not
 * there (refused, unreachable, a bad address) is an honest "unavailable"; a
 * peer that is slow or breaks the connection may be back in a moment, so
 * the probe raises and the registry's grace applies. A secret that is not
 * set is unavailable with the host's words, which name the variable.
 */
static inline int proto_failed(int32_t r, const char *what) {
	proto_again();
	switch (r) {
	case GATE_DENIED:
		/* The host records the denial; a reason here would hide it. */
		return GATE_UNAVAILABLE;
	case GATE_NOT_SET:
		proto_put_last_error();
		std_reason();
		return GATE_UNAVAILABLE;
	case GATE_REFUSED:
	case GATE_UNREACHABLE:
	case GATE_BAD_ADDRESS:
		std_puts(gate_dial_status_text(r));
		std_reason();
		return GATE_UNAVAILABLE;
	case GATE_TLS_FAILED:
		std_puts("TLS: ");
		proto_put_last_error();
		std_reason();
		return GATE_UNAVAILABLE;
	case GATE_TIMEOUT:
		std_puts("timed out ");
		std_puts(what);
		break;
	case GATE_CLOSED:
		std_puts("connection reset while ");
		std_puts(what);
		std_puts(" (");
		proto_put_last_error();
		std_puts(")");
		break;
	case GATE_LIMIT:
		std_puts("over the run's limits while ");
		std_puts(what);
		std_puts(" (");
		proto_put_last_error();
		std_puts(")");
		break;
	default:
		std_puts("failed while ");
		std_puts(what);
		proto_put_status(r);
		break;
	}
	std_reason();
	return GATE_ERROR;
}

/* ---- A buffered reader over gate_recv ---- */

/* PROTO_IN_MAX is the longest line or message head the probes look at. */
#define PROTO_IN_MAX 2048

static char proto_in[PROTO_IN_MAX];
static uint32_t proto_in_start, proto_in_end;

/* proto_in_len is how many received bytes are waiting to be read. */
static inline uint32_t proto_in_len(void) {
	return proto_in_end - proto_in_start;
}

/*
 * proto_fill receives more bytes after those waiting, moving them to the
 * front of the buffer first. It returns the count (> 0), 0 when the peer
 * has closed, a negative gate_recv status, or GATE_LIMIT when the buffer is
 * already full.
 */
static inline int32_t proto_fill(int32_t h, int32_t timeout_ms) {
	if (proto_in_start > 0) {
		uint32_t n = proto_in_len();
		for (uint32_t i = 0; i < n; i++)
			proto_in[i] = proto_in[proto_in_start + i];
		proto_in_start = 0;
		proto_in_end = n;
	}
	if (proto_in_end == PROTO_IN_MAX)
		return GATE_LIMIT;
	int32_t r = gate_recv(h, proto_in + proto_in_end, PROTO_IN_MAX - proto_in_end, timeout_ms);
	if (r > 0)
		proto_in_end += (uint32_t)r;
	return r;
}

/*
 * proto_need waits until n bytes (at most PROTO_IN_MAX) are waiting. It
 * returns 1, 0 when the peer closed first, or a negative gate_recv status.
 */
static inline int32_t proto_need(int32_t h, uint32_t n, int32_t timeout_ms) {
	while (proto_in_len() < n) {
		int32_t r = proto_fill(h, timeout_ms);
		if (r <= 0)
			return r;
	}
	return 1;
}

/*
 * proto_line reads one line ending in "\r\n" into *line and *len (without
 * the "\r\n"); a line longer than the buffer is cut there. It returns 1,
 * 0 when the peer closed before a whole line, or a negative status.
 */
static inline int32_t proto_line(int32_t h, int32_t timeout_ms, const char **line, uint32_t *len) {
	uint32_t scanned = proto_in_start;
	for (;;) {
		for (uint32_t i = scanned; i + 1 < proto_in_end; i++) {
			if (proto_in[i] == '\r' && proto_in[i + 1] == '\n') {
				*line = proto_in + proto_in_start;
				*len = i - proto_in_start;
				proto_in_start = i + 2;
				return 1;
			}
		}
		uint32_t seen = proto_in_len();
		int32_t r = proto_fill(h, timeout_ms);
		if (r == GATE_LIMIT) {
			*line = proto_in + proto_in_start;
			*len = proto_in_len();
			proto_in_start = proto_in_end;
			return 1;
		}
		if (r <= 0)
			return r;
		/* Scan again from the last byte seen: it may be the "\r". */
		scanned = proto_in_start + (seen > 0 ? seen - 1 : 0);
	}
}

/* proto_start resets the probe's state, reason and reader included. */
static inline void proto_start(void) {
	std_start();
	proto_prefix_len = 0;
	proto_in_start = 0;
	proto_in_end = 0;
}

#endif /* GATE_PROTO_H */
