/*
 * mcp.c - the standard "mcp" probe (ABI v2).
 *
 * Config: "url" (http:// or https://, a streamable-HTTP MCP endpoint),
 * "headers" (request header lines joined by "\n"; values may hold
 * ${secret:NAME}, as in "Authorization: Bearer ${secret:MCP_TOKEN}") and
 * "timeout_ms" (for each of its requests).
 *
 * It does what a client does to start: POST initialize, keep the
 * Mcp-Session-Id and the protocol version the server chose, POST
 * notifications/initialized and tools/list with both, then DELETE the
 * session (unless it raises). Answers may be JSON or SSE ("data:" lines); it scans them for
 * the JSON-RPC "result" or "error" rather than parsing them, which is
 * enough for an answer to its own request.
 *
 * Available iff tools/list lists at least one tool. Unavailable: "MCP
 * server at URL lists no tools", a JSON-RPC error ("MCP server at URL:
 * initialize failed: <its message>"), an answer without a result, 401 or
 * 403 ("credentials rejected"), 404 and other statuses, a refused or
 * unreachable server, TLS failing. 429, 5xx, timeouts and resets raise.
 */
#include "std.h"

static const char initialize[] =
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
	"\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
	"\"clientInfo\":{\"name\":\"gate-probe\",\"version\":\"2\"}}}";
static const char initialized[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
static const char tools_list[] = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

/* The session the server gave, and the protocol version it chose. */
static char session[256];
static int32_t session_len;
static char version[32];
static int32_t version_len;

static uint32_t url_at, url_len, body_len;
static int32_t timeout;

/*
 * visible reports whether s[0..n) is 1 to n visible ASCII characters, as
 * a session id must be (and a version we send back in a header should
 * be): nothing the server sends can add a line to our requests.
 */
static int visible(const char *s, int32_t n) {
	for (int32_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~' || s[i] == '\\')
			return 0;
	return n > 0;
}

/*
 * request sends one request to the configured URL with the headers of
 * the session so far and returns gate_http's answer (or GATE_BAD_REQUEST
 * when it would not fit in the request buffer).
 */
static int32_t request(const char *method, const char *body) {
	std_req_len = 0;
	std_req_over = 0;
	std_req_puts(method);
	std_req_put(" ", 1);
	url_at = std_req_len;
	int32_t n = std_req_config("url");
	url_len = n > 0 ? (uint32_t)n : 0;
	std_req_puts("\nContent-Type: application/json\nAccept: application/json, text/event-stream\n");
	if (session_len > 0) {
		std_req_puts("Mcp-Session-Id: ");
		std_req_put(session, (uint32_t)session_len);
		std_req_put("\n", 1);
	}
	if (version_len > 0) {
		std_req_puts("MCP-Protocol-Version: ");
		std_req_put(version, (uint32_t)version_len);
		std_req_put("\n", 1);
	}
	std_req_headers("headers");
	if (body) {
		std_req_put("\n", 1);
		std_req_puts(body);
	}
	if (std_req_over)
		return GATE_BAD_REQUEST;
	return gate_http(std_req_buf, std_req_len, 0, timeout);
}

/* subject starts the reason: "MCP server at URL". */
static void subject(void) {
	std_reason_len = 0;
	std_puts("MCP server at ");
	std_put_cut(std_req_buf + url_at, url_len, 120);
}

/*
 * answer judges response h to the request what. It returns -1 when the
 * status is good and the body (in std_body_buf) holds a JSON-RPC result,
 * whose value starts at *result; else the probe's answer, its reason set.
 */
static int answer(int32_t h, const char *what, int32_t *result) {
	subject();
	if (h <= 0)
		return std_http_failed(h);
	int r = std_http_status(gate_http_status(h));
	if (r >= 0)
		return r;
	body_len = std_body(h);
	int32_t res = std_json_value(std_body_buf, body_len, 0, "result");
	int32_t err = std_json_value(std_body_buf, body_len, 0, "error");
	if (err >= 0 && std_body_buf[err] == '{' && (res < 0 || err < res)) {
		std_puts(": ");
		std_puts(what);
		std_puts(" failed: ");
		int32_t m = std_json_value(std_body_buf, body_len, (uint32_t)err, "message");
		int32_t mn = std_json_string(std_body_buf, body_len, m);
		if (mn >= 0)
			std_put_cut(std_body_buf + m + 1, (uint32_t)mn, 0);
		else
			std_puts("JSON-RPC error without a message");
	} else if (res < 0 || std_body_buf[res] != '{') {
		std_puts(": no JSON-RPC result in the answer to ");
		std_puts(what);
	} else {
		*result = res;
		return -1;
	}
	std_reason();
	return GATE_UNAVAILABLE;
}

/*
 * finish ends the session, if the server keeps one, and returns result;
 * not after a raise, when the server is timing out or failing anyway and
 * what is left of the budget is better left alone.
 */
static int finish(int result) {
	if (session_len > 0 && result != GATE_ERROR)
		request("DELETE", 0);
	return result;
}

GATE_EXPORT(probe) int probe(void) {
	std_start();
	session_len = 0;
	version_len = 0;
	timeout = std_timeout("mcp");
	if (timeout < 0)
		return GATE_ERROR;
	if (gate_config_str("url", 0, 0) <= 0)
		return std_config_error("mcp", "url", "is not set");

	int32_t at;
	int32_t h = request("POST", initialize);
	if (h == GATE_BAD_REQUEST && std_req_over)
		return std_config_error("mcp", "url", "with the headers is too long (the limit is 12288 bytes)");
	int r = answer(h, "initialize", &at);
	if (r >= 0)
		return r;
	session_len = gate_http_header(h, "Mcp-Session-Id", 14, session, sizeof session);
	if (session_len > (int32_t)sizeof session || !visible(session, session_len))
		session_len = 0; /* not one we can send back; the server will say so */
	gate_close(h);
	int32_t v = std_json_value(std_body_buf, body_len, (uint32_t)at, "protocolVersion");
	version_len = std_json_string(std_body_buf, body_len, v);
	if (version_len < (int32_t)sizeof version && visible(std_body_buf + v + 1, version_len)) {
		for (int32_t i = 0; i < version_len; i++)
			version[i] = std_body_buf[v + 1 + i];
	} else {
		version_len = 10;
		for (int32_t i = 0; i < version_len; i++)
			version[i] = "2025-06-18"[i];
	}

	h = request("POST", initialized);
	subject();
	if (h <= 0)
		return finish(std_http_failed(h));
	r = std_http_status(gate_http_status(h));
	if (r >= 0)
		return finish(r);
	gate_close(h);

	r = answer(request("POST", tools_list), "tools/list", &at);
	if (r >= 0)
		return finish(r);
	int32_t t = (uint32_t)at;
	do
		t = std_json_value(std_body_buf, body_len, (uint32_t)t, "tools");
	while (t >= 0 && std_body_buf[t] != '[');
	if (t >= 0) {
		t++;
		while ((uint32_t)t < body_len && std_is_ws(std_body_buf[t]))
			t++;
		if ((uint32_t)t < body_len && std_body_buf[t] == '{')
			return finish(GATE_AVAILABLE);
	}
	std_puts(" lists no tools");
	std_reason();
	return finish(GATE_UNAVAILABLE);
}
