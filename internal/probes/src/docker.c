/*
 * docker.c - the standard "docker" probe (ABI v2).
 *
 * Config: "socket", the path of the Docker API's unix socket (default
 * /var/run/docker.sock), and "timeout_ms". It asks GET /_ping on the
 * socket, as `docker` and the SDKs' ping do.
 *
 * Available iff the answer is 200. No daemon (the socket refuses or is
 * missing) is unavailable, "Docker unavailable: SOCKET: connection refused
 * (is the daemon running?)"; so is a socket the host can't reach (say,
 * permission denied, in the host's words) and any other status. A daemon
 * that hangs (a timeout), a reset and 5xx raise: they are transient.
 */
#include "std.h"

GATE_EXPORT(probe) int probe(void) {
	std_start();
	std_req_len = 0;
	std_req_over = 0;
	int32_t timeout = std_timeout("docker");
	if (timeout < 0)
		return GATE_ERROR;

	std_req_puts("GET unix:");
	int32_t n = std_req_config("socket");
	if (n <= 0) {
		std_req_puts("/var/run/docker.sock");
		n = 20;
	}
	std_req_puts(":/_ping\n");
	if (std_req_over)
		return std_config_error("docker", "socket", "is too long");

	int32_t h = gate_http(std_req_buf, std_req_len, 0, timeout);
	std_puts("Docker unavailable: ");
	std_put_cut(std_req_buf + 9, (uint32_t)n, 80);
	if (h == GATE_REFUSED) {
		std_puts(": connection refused (is the daemon running?)");
		std_reason();
		return GATE_UNAVAILABLE;
	}
	if (h <= 0)
		return std_http_failed(h);
	int32_t code = gate_http_status(h);
	if (code == 200)
		return GATE_AVAILABLE;
	std_puts(": HTTP ");
	std_putu((uint32_t)code);
	if (code >= 500) {
		std_puts(" (transient)");
		std_reason();
		return GATE_ERROR;
	}
	std_reason();
	return GATE_UNAVAILABLE;
}
