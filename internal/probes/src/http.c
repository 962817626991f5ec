/*
 * http.c - the standard "http" probe (ABI v2).
 *
 * Config: "url" (http:// or https://), "method" (default GET), "headers"
 * (request header lines joined by "\n"; values may hold ${secret:NAME}),
 * "body", "status" (codes and ranges, "200-299,301"), "expect_body" and
 * "reject_body" (substrings of the body's first 32 KiB), "expect_header"
 * ("Name: substring"), "insecure" ("true": skip TLS verification, which
 * needs an insecure grant), "timeout_ms".
 *
 * Available iff the answer's status is in "status" (without it: any 2xx
 * or 3xx) and every expectation holds. Otherwise the reason starts with
 * the URL as configured: "URL: credentials rejected (HTTP 401)", "URL:
 * not found (HTTP 404)", "URL: HTTP 418", "URL: connection refused",
 * "URL: TLS: <the host's words>", "URL: HTTP 200, but the body does not
 * contain "ok"". 429, 5xx, a timeout and a reset raise (GATE_ERROR): they
 * are transient, so the registry's grace applies. A secret that is not
 * set is unavailable with the host's words, which name the variable; a
 * denial is unavailable with the host's own reason.
 */
#include "std.h"

/* A response header's value, for expect_header. */
static char header_buf[1024];

static uint32_t url_at, url_len;

/* subject starts the reason with the URL as configured. */
static void subject(void) {
	std_reason_len = 0;
	std_put_cut(std_req_buf + url_at, url_len, 120);
}

/* quoted appends s[0..n) in quotes, cut short if it is long. */
static void quoted(const char *s, uint32_t n) {
	std_puts(" \"");
	std_put_cut(s, n < 200 ? n : 200, 24);
	if (n > 200)
		std_puts("...");
	std_puts("\"");
}

/* config reads key into std_config_buf: its length, or -1 if not set. */
static int32_t config(const char *key) {
	int32_t n = gate_config_str(key, std_config_buf, STD_CONFIG_MAX);
	return n > STD_CONFIG_MAX ? STD_CONFIG_MAX : n;
}

/* unavailable finishes a reason that says an expectation failed. */
static int unavailable(int32_t code, const char *what) {
	std_puts(": HTTP ");
	std_putu((uint32_t)code);
	std_puts(", but ");
	std_puts(what);
	return GATE_UNAVAILABLE;
}

/* expect checks the expectations on a response that has a good status. */
static int expect(int32_t h, int32_t code) {
	int32_t n = config("expect_header");
	if (n > 0) {
		int32_t colon = std_find(std_config_buf, (uint32_t)n, 0, ":", 1);
		if (colon <= 0) {
			std_reason_len = 0;
			return std_config_error("http", "expect_header", "must be \"Name: substring\"");
		}
		uint32_t t = (uint32_t)colon + 1;
		while (t < (uint32_t)n && std_config_buf[t] == ' ')
			t++;
		int32_t vn = gate_http_header(h, std_config_buf, (uint32_t)colon, header_buf, sizeof header_buf);
		if (vn < 0) {
			unavailable(code, "no header ");
			std_put(std_config_buf, (uint32_t)colon);
			return GATE_UNAVAILABLE;
		}
		if (vn > (int32_t)sizeof header_buf)
			vn = sizeof header_buf;
		if (std_find(header_buf, (uint32_t)vn, 0, std_config_buf + t, (uint32_t)n - t) < 0) {
			unavailable(code, "header ");
			std_put(std_config_buf, (uint32_t)colon);
			std_puts(" is");
			quoted(header_buf, (uint32_t)vn);
			std_puts(", without");
			quoted(std_config_buf + t, (uint32_t)n - t);
			return GATE_UNAVAILABLE;
		}
	}
	uint32_t body = std_body(h);
	n = config("expect_body");
	if (n > 0 && std_find(std_body_buf, body, 0, std_config_buf, (uint32_t)n) < 0) {
		unavailable(code, "the body does not contain");
		quoted(std_config_buf, (uint32_t)n);
		return GATE_UNAVAILABLE;
	}
	n = config("reject_body");
	if (n > 0 && std_find(std_body_buf, body, 0, std_config_buf, (uint32_t)n) >= 0) {
		unavailable(code, "the body contains");
		quoted(std_config_buf, (uint32_t)n);
		return GATE_UNAVAILABLE;
	}
	return GATE_AVAILABLE;
}

GATE_EXPORT(probe) int probe(void) {
	std_start();
	std_req_len = 0;
	std_req_over = 0;
	int32_t timeout = std_timeout("http");
	if (timeout < 0)
		return GATE_ERROR;

	if (std_req_config("method") <= 0)
		std_req_puts("GET");
	std_req_put(" ", 1);
	url_at = std_req_len;
	int32_t n = std_req_config("url");
	if (n <= 0)
		return std_config_error("http", "url", "is not set");
	url_len = (uint32_t)n;
	std_req_put("\n", 1);
	std_req_headers("headers");
	if (gate_config_str("body", 0, 0) >= 0) {
		std_req_put("\n", 1);
		std_req_config("body");
	}
	if (std_req_over)
		return std_config_error("http", "url",
					"with the headers and body is too long (the limit is 12288 bytes)");

	int32_t flags = 0;
	n = config("insecure");
	if (n == 4 && std_find(std_config_buf, 4, 0, "true", 4) == 0)
		flags = GATE_INSECURE;

	int32_t h = gate_http(std_req_buf, std_req_len, flags, timeout);
	subject();
	if (h <= 0)
		return std_http_failed(h);
	int32_t code = gate_http_status(h);

	int result = -1;
	n = config("status");
	if (n >= 0) {
		int in = std_status_in(std_config_buf, (uint32_t)n, code);
		if (in < 0) {
			std_reason_len = 0;
			return std_config_error("http", "status",
						"must be status codes and ranges, like 200-299,301");
		}
		if (!in && code >= 200 && code < 400) {
			std_puts(": HTTP ");
			std_putu((uint32_t)code);
			std_puts(" (want ");
			std_put_cut(std_config_buf, (uint32_t)n, 1);
			std_puts(")");
			result = GATE_UNAVAILABLE;
		} else if (!in) {
			return std_http_status(code);
		}
	} else {
		result = std_http_status(code);
		if (result >= 0)
			return result;
	}
	if (result < 0)
		result = expect(h, code);
	if (result != GATE_AVAILABLE)
		std_reason();
	return result;
}
