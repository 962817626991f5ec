/*
 * std.h - code shared by the standard probes (env, tcp, import and the ABI
 * v2 ones). Not part of the SDK: third-party probes need only
 * include/gate.h.
 *
 * Everything here is static and lives in the probe's one page of memory:
 * a 4 KiB config buffer and a reason buffer of the size the host keeps.
 * Zero-initialised buffers go to .bss, which costs no bytes in the .wasm,
 * and the reason is one global (not a gate_sb passed around) because that
 * makes the smallest code.
 */
#ifndef GATE_STD_H
#define GATE_STD_H

#include "gate.h"

/* STD_CONFIG_MAX is the longest config value a standard probe accepts. */
#define STD_CONFIG_MAX 4096

/*
 * STD_TAIL is the room kept free at the end of the reason for ", and N
 * more" or "...", so a cut-off reason still says that it was cut.
 */
#define STD_TAIL 24

static char std_config_buf[STD_CONFIG_MAX];

static char std_reason_buf[GATE_REASON_MAX];
static uint32_t std_reason_len;

/* How many items of the missing list are shown, and how many cut off. */
static uint32_t std_shown, std_dropped;

/*
 * std_start resets the static state. A host runs each probe in a fresh
 * instance, but one that called probe() twice on the same instance must
 * still get the same answer.
 */
static inline void std_start(void) {
	std_reason_len = 0;
	std_shown = 0;
	std_dropped = 0;
}

/* std_room is how many more bytes the reason can take. */
static inline uint32_t std_room(void) {
	return GATE_REASON_MAX - std_reason_len;
}

/*
 * std_put appends s[0..n) to the reason, or as much as fits without
 * splitting a UTF-8 character.
 */
static inline void std_put(const char *s, uint32_t n) {
	if (n > std_room()) {
		n = std_room();
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	for (uint32_t i = 0; i < n; i++)
		std_reason_buf[std_reason_len++] = s[i];
}

/* std_puts appends a NUL-terminated string to the reason. */
static inline void std_puts(const char *s) {
	std_put(s, gate_strlen(s));
}

/* std_putu appends v in decimal to the reason. */
static inline void std_putu(uint32_t v) {
	char tmp[10];
	uint32_t i = sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	std_put(tmp + i, sizeof tmp - i);
}

/*
 * std_put_cut appends s[0..n) to the reason, cut short with "..." if it
 * would leave less than keep bytes for what comes after it.
 */
static inline void std_put_cut(const char *s, uint32_t n, uint32_t keep) {
	keep += 3; /* the "..." */
	if (n + keep > std_room()) {
		std_put(s, std_room() > keep ? std_room() - keep : 0);
		std_puts("...");
		return;
	}
	std_put(s, n);
}

/* std_reason hands the reason built so far to the host. */
static inline void std_reason(void) {
	gate_reason(std_reason_buf, std_reason_len);
}

/*
 * std_config_error sets the reason "<probe> probe: config "<key>" <what>"
 * and returns GATE_ERROR: the probe can't answer because its config is
 * wrong.
 */
static inline int std_config_error(const char *probe, const char *key, const char *what) {
	std_puts(probe);
	std_puts(" probe: config \"");
	std_puts(key);
	std_puts("\" ");
	std_puts(what);
	std_reason();
	return GATE_ERROR;
}

/*
 * std_config starts the probe (see std_start) and reads config key into
 * std_config_buf. It returns the value's
 * length (0 when it is not set), or -1 after setting a reason when the
 * value is longer than STD_CONFIG_MAX: a cut-off list would silently check
 * less than the manifest asked for.
 */
static inline int32_t std_config(const char *probe, const char *key) {
	std_start();
	int32_t n = gate_config_str(key, std_config_buf, STD_CONFIG_MAX);
	if (n < 0)
		return 0;
	if (n > STD_CONFIG_MAX) {
		std_config_error(probe, key, "is too long (");
		std_putu((uint32_t)n);
		std_puts(" bytes; the limit is 4096)");
		std_reason();
		return -1;
	}
	return n;
}

/*
 * std_missing adds item[0..n) followed by suffix[0..slen) to the missing
 * list, "Heading: A, B, C". Items that no longer fit are counted and
 * reported as ", and N more", so the list stays in order and says that it
 * was cut.
 */
static inline void std_missing(const char *heading, const char *item, uint32_t n,
			       const char *suffix, uint32_t slen) {
	if (std_shown == 0) {
		std_puts(heading);
		/* The first item is always shown, if need be cut short. */
		std_put_cut(item, n, slen + STD_TAIL);
	} else if (std_dropped || 2 + n + slen + STD_TAIL > std_room()) {
		std_dropped++;
		return;
	} else {
		std_put(", ", 2);
		std_put(item, n);
	}
	std_put(suffix, slen);
	std_shown++;
}

/* std_missing_reason finishes the list and sets it as the reason. */
static inline void std_missing_reason(void) {
	if (std_dropped) {
		std_puts(", and ");
		std_putu(std_dropped);
		std_puts(" more");
	}
	std_reason();
}


/* ---- ABI v2: timeouts, the host's words, HTTP requests and answers ---- */

/* 10 digits hold INT32_MAX; the 11th byte tells a longer value apart. */
static char std_num_buf[11];

/*
 * std_uint reads config key of probe as a whole number from 0 to max
 * (at most INT32_MAX) into *out, leaving *out alone when the key is not
 * set. It returns 0, or -1 after setting the reason "<probe> probe: config
 * "<key>" must be <what> (0 to <max>), not "<value>"".
 */
static inline int std_uint(const char *probe, const char *key, const char *what, uint32_t max, int32_t *out) {
	int32_t n = gate_config_str(key, std_num_buf, sizeof std_num_buf);
	if (n < 0)
		return 0;
	uint32_t v = 0;
	int ok = n > 0 && n < (int32_t)sizeof std_num_buf;
	for (int32_t i = 0; ok && i < n; i++) {
		uint32_t d = (uint32_t)(unsigned char)std_num_buf[i] - '0';
		if (d > 9 || v > (max - d) / 10)
			ok = 0;
		v = v * 10 + d;
	}
	if (ok) {
		*out = (int32_t)v;
		return 0;
	}
	std_config_error(probe, key, "must be ");
	std_puts(what);
	std_puts(" (0 to ");
	std_putu(max);
	std_puts("), not \"");
	std_put(std_num_buf, n < (int32_t)sizeof std_num_buf ? (uint32_t)n : sizeof std_num_buf);
	std_puts(n > (int32_t)sizeof std_num_buf ? "...\"" : "\"");
	std_reason();
	return -1;
}

/*
 * std_timeout reads the optional "timeout_ms" config of probe. It returns
 * the timeout (0, "as long as the budget allows", if not set), or -1
 * after setting a reason when the value is not a whole number from 0 to
 * INT32_MAX.
 */
static inline int32_t std_timeout(const char *probe) {
	int32_t t = 0;
	if (std_uint(probe, "timeout_ms", "a whole number of milliseconds", 0x7FFFFFFFu, &t) < 0)
		return -1;
	return t;
}

/*
 * std_last_error appends the host's words for the last failed call
 * ("x509: certificate has expired"), leaving keep bytes of the reason
 * free, or "unknown error" when the host has none. The host has
 * already redacted every secret from them.
 */
static inline void std_last_error(uint32_t keep) {
	uint32_t cap = std_room() > keep ? std_room() - keep : 0;
	int32_t n = gate_last_error(std_reason_buf + std_reason_len, cap);
	if (n < 0) {
		std_puts("unknown error");
		return;
	}
	std_reason_len += (uint32_t)n < cap ? (uint32_t)n : cap;
}

/*
 * std_find returns where needle[0..nn) first occurs in hay[0..hn) at or
 * after from, or -1. An empty needle occurs at from.
 */
static inline int32_t std_find(const char *hay, uint32_t hn, uint32_t from,
			       const char *needle, uint32_t nn) {
	for (uint32_t i = from; i + nn <= hn; i++) {
		uint32_t j = 0;
		while (j < nn && hay[i + j] == needle[j])
			j++;
		if (j == nn)
			return (int32_t)i;
	}
	return -1;
}

/*
 * std_code reads three digits at s[0..n) as a status code (100 to 599),
 * or returns -1.
 */
static inline int32_t std_code(const char *s, uint32_t n) {
	if (n != 3)
		return -1;
	int32_t v = 0;
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t d = (uint32_t)(unsigned char)s[i] - '0';
		if (d > 9)
			return -1;
		v = v * 10 + (int32_t)d;
	}
	return v >= 100 && v <= 599 ? v : -1;
}

/*
 * std_status_in reports whether code is in a status list like
 * "200-299,301" (items separated as gate_next_item reads them): 1 if it
 * is, 0 if not, -1 if the list is malformed or empty.
 */
static inline int std_status_in(const char *list, uint32_t len, int32_t code) {
	uint32_t pos = 0, n, items = 0;
	const char *it;
	int in = 0;
	while (gate_next_item(list, len, &pos, &it, &n)) {
		int32_t lo = std_code(it, n < 3 ? n : 3), hi = lo;
		if (n == 7 && it[3] == '-')
			hi = std_code(it + 4, 3);
		else if (n != 3)
			return -1;
		if (lo < 0 || hi < lo)
			return -1;
		if (code >= lo && code <= hi)
			in = 1;
		items++;
	}
	return items ? in : -1;
}

/*
 * A request for gate_http is built in std_req_buf: "METHOD URL\n",
 * header lines, "\n", the body. Config values are read straight into it,
 * so the URL a reason names is the one in the request, and a value that
 * does not fit sets std_req_over instead of being cut (a cut URL or
 * header would ask something else than the manifest says).
 */
#define STD_REQ_MAX 12288
static char std_req_buf[STD_REQ_MAX];
static uint32_t std_req_len;
static int std_req_over;

/* std_req_put appends s[0..n) to the request, if it fits. */
static inline void std_req_put(const char *s, uint32_t n) {
	if (n > STD_REQ_MAX - std_req_len) {
		std_req_over = 1;
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		std_req_buf[std_req_len++] = s[i];
}

/* std_req_puts appends a NUL-terminated string to the request. */
static inline void std_req_puts(const char *s) {
	std_req_put(s, gate_strlen(s));
}

/*
 * std_req_config appends config key's value to the request and returns
 * its length, or -1 (appending nothing) when the key is not set.
 */
static inline int32_t std_req_config(const char *key) {
	uint32_t room = STD_REQ_MAX - std_req_len;
	int32_t n = gate_config_str(key, std_req_buf + std_req_len, room);
	if (n < 0)
		return -1;
	if ((uint32_t)n > room)
		std_req_over = 1;
	else
		std_req_len += (uint32_t)n;
	return n;
}

/*
 * std_req_headers appends config key (header lines joined by "\n"), if
 * set, each line ended by "\n".
 */
static inline void std_req_headers(const char *key) {
	int32_t n = std_req_config(key);
	if (n > 0 && !std_req_over && std_req_buf[std_req_len - 1] != '\n')
		std_req_put("\n", 1);
}

/* The start of a response body: enough for the checks of the probes. */
#define STD_BODY_MAX 32768
static char std_body_buf[STD_BODY_MAX];

/*
 * std_body reads the first STD_BODY_MAX bytes of response h's body into
 * std_body_buf and returns how many it holds.
 */
static inline uint32_t std_body(int32_t h) {
	int32_t n = gate_http_body(h, std_body_buf, STD_BODY_MAX);
	if (n < 0)
		return 0;
	return (uint32_t)n < STD_BODY_MAX ? (uint32_t)n : STD_BODY_MAX;
}

/*
 * std_http_failed finishes the reason for a failed gate_connect or
 * gate_http whose subject (the URL, say) is already in it, and returns
 * the probe's answer: refused, unreachable, TLS failed and a bad request
 * are unavailable; a timeout, a reset or broken HTTP and a bound raise
 * (transient: the registry's grace applies). A denial sets no reason
 * (the host records one) and a secret that is not set is the host's
 * words alone (they name the variable).
 */
static inline int std_http_failed(int32_t r) {
	int result = GATE_UNAVAILABLE;
	switch (r) {
	case GATE_DENIED:
		return GATE_UNAVAILABLE;
	case GATE_NOT_SET:
		std_reason_len = 0;
		std_last_error(0);
		break;
	case GATE_REFUSED:
		std_puts(": connection refused");
		break;
	case GATE_UNREACHABLE:
		std_puts(": unreachable: ");
		std_last_error(0);
		break;
	case GATE_TLS_FAILED:
		std_puts(": TLS: ");
		std_last_error(0);
		break;
	case GATE_BAD_REQUEST:
		std_puts(": bad request: ");
		std_last_error(0);
		break;
	case GATE_TIMEOUT:
		std_puts(": timed out");
		result = GATE_ERROR;
		break;
	case GATE_CLOSED:
		std_puts(": connection reset or broken HTTP: ");
		std_last_error(0);
		result = GATE_ERROR;
		break;
	case GATE_LIMIT:
		std_puts(": ");
		std_last_error(0);
		result = GATE_ERROR;
		break;
	default:
		/* A status this probe doesn't know (a newer host): still say no. */
		std_puts(": request failed (status ");
		if (r < 0)
			std_puts("-");
		std_putu(r < 0 ? (uint32_t)0 - (uint32_t)r : (uint32_t)r);
		std_puts(")");
	}
	std_reason();
	return result;
}

/*
 * std_http_status judges a status code by the rules http and mcp share,
 * for a reason whose subject is already in it: 2xx and 3xx return -1
 * (go on); 401 and 403 are "credentials rejected", 404 "not found",
 * other codes "HTTP 418" (unavailable); 429 and 5xx raise.
 */
static inline int std_http_status(int32_t code) {
	if (code >= 200 && code < 400)
		return -1;
	int result = GATE_UNAVAILABLE;
	if (code == 401 || code == 403)
		std_puts(": credentials rejected (HTTP ");
	else if (code == 404)
		std_puts(": not found (HTTP ");
	else
		std_puts(": HTTP ");
	std_putu((uint32_t)code);
	if (code == 429 || code >= 500) {
		std_puts(" (transient)");
		result = GATE_ERROR;
	} else if (code == 401 || code == 403 || code == 404) {
		std_puts(")");
	}
	std_reason();
	return result;
}

/* std_is_ws reports whether c is JSON whitespace. */
static inline int std_is_ws(char c) {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * std_json_value finds the first "key" at or after from in buf[0..n)
 * that is an object key (followed by ':') and returns where its value
 * starts, or -1. It is a scan, not a parser: enough to read a JSON-RPC
 * answer, plain or in SSE "data:" lines, whose first key of interest is
 * the one meant.
 */
static inline int32_t std_json_value(const char *buf, uint32_t n, uint32_t from, const char *key) {
	uint32_t kn = gate_strlen(key);
	for (;;) {
		int32_t at = std_find(buf, n, from, key, kn);
		if (at < 1)
			return -1;
		uint32_t i = (uint32_t)at + kn;
		from = (uint32_t)at + 1;
		if (buf[at - 1] != '"' || i >= n || buf[i] != '"')
			continue;
		i++;
		while (i < n && std_is_ws(buf[i]))
			i++;
		if (i >= n || buf[i] != ':')
			continue;
		i++;
		while (i < n && std_is_ws(buf[i]))
			i++;
		return (int32_t)i;
	}
}

/*
 * std_json_string returns the length of the JSON string whose opening
 * quote is at buf[at] (escapes left as they are), or -1 if there is no
 * string there or it does not end within buf[0..n).
 */
static inline int32_t std_json_string(const char *buf, uint32_t n, int32_t at) {
	if (at < 0 || (uint32_t)at >= n || buf[at] != '"')
		return -1;
	for (uint32_t i = (uint32_t)at + 1; i < n; i++) {
		if (buf[i] == '\\')
			i++;
		else if (buf[i] == '"')
			return (int32_t)(i - (uint32_t)at - 1);
	}
	return -1;
}

#endif /* GATE_STD_H */
