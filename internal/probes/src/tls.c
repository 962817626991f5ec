/*
 * tls.c - the standard "tls" probe (ABI v2).
 *
 * Config: "addr", "host:port"; optional "days" (default 14), how many days
 * the certificate must still be valid; optional "timeout_ms" (default 0:
 * as long as the budget allows).
 *
 * It connects to "tls:ADDR", which verifies the server's chain and name
 * against the system roots or the manifest's tls_ca, and reads the leaf
 * certificate's NotAfter with gate_tls:
 *
 *   verified, at least "days" days left     -> available
 *   verified, fewer                         -> unavailable "ADDR: certificate
 *                                              expires in N days (YYYY-MM-DD)"
 *   not verified (expired, unknown CA, name) -> unavailable "ADDR: certificate
 *                                              not verified: <host's words>"
 *   refused, unreachable                    -> unavailable
 *   timed out (a stalled handshake), reset  -> raise
 *
 * N is whole days left, rounded down, so N < days exactly when the probe
 * says no; the date is NotAfter's, in UTC.
 */
#include "proto.h"

#define DAY 86400

/* "tls:" and the address. */
static char target[4 + 512];

/* put2 appends v (0-99) in two digits. */
static void put2(uint32_t v) {
	char d[2] = {(char)('0' + v / 10), (char)('0' + v % 10)};
	std_put(d, 2);
}

/*
 * put_date appends the UTC date of Unix time t as YYYY-MM-DD: Howard
 * Hinnant's civil_from_days, in integer arithmetic, valid for any date
 * after year 0.
 */
static void put_date(int64_t t) {
	int64_t z = t / DAY - (t % DAY < 0);
	z += 719468; /* days from 0000-03-01 to 1970-01-01 */
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	uint32_t doe = (uint32_t)(z - era * 146097);                        /* [0, 146096] */
	uint32_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
	int64_t y = (int64_t)yoe + era * 400;
	uint32_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100); /* [0, 365] */
	uint32_t mp = (5 * doy + 2) / 153;                       /* [0, 11], from March */
	uint32_t d = doy - (153 * mp + 2) / 5 + 1;
	uint32_t m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	if (y < 0) {
		std_puts("-");
		y = -y;
	}
	if (y < 1000)
		std_puts(y < 10 ? "000" : y < 100 ? "00" : "0");
	std_putu((uint32_t)y);
	std_puts("-");
	put2(m);
	std_puts("-");
	put2(d);
}

static int check(void) {
	int32_t an = proto_config("tls", "addr", target + 4, sizeof target - 4);
	if (an < 0)
		return GATE_ERROR;
	if (an == 0)
		return std_config_error("tls", "addr", "is not set");
	int32_t days = 14;
	if (std_uint("tls", "days", "a whole number of days", 36500, &days) < 0)
		return GATE_ERROR;
	int32_t timeout_ms = std_timeout("tls");
	if (timeout_ms < 0)
		return GATE_ERROR;

	const char *addr = target + 4;
	proto_target("", addr, (uint32_t)an);
	target[0] = 't';
	target[1] = 'l';
	target[2] = 's';
	target[3] = ':';
	int32_t h = gate_connect(target, 4 + (uint32_t)an, 0, timeout_ms);
	if (h == GATE_TLS_FAILED) {
		proto_again();
		std_puts("certificate not verified: ");
		proto_put_last_error();
		std_reason();
		return GATE_UNAVAILABLE;
	}
	if (h <= 0)
		return proto_failed(h, "connecting");

	int64_t out[2];
	int32_t v = gate_tls(h, out);
	gate_close(h);
	if (v != 1) {
		proto_again();
		std_puts(v == 0 ? "certificate not verified" : "no TLS facts");
		if (v != 0)
			proto_put_status(v);
		std_reason();
		return v == 0 ? GATE_UNAVAILABLE : GATE_ERROR;
	}
	int64_t left = out[1];
	if (left >= (int64_t)days * DAY)
		return GATE_AVAILABLE;
	proto_again();
	if (left < 0) {
		std_puts("certificate expired (");
	} else {
		std_puts("certificate expires in ");
		int64_t n = left / DAY;
		if (n == 0) {
			std_puts("less than a day (");
		} else {
			std_putu((uint32_t)n);
			std_puts(n == 1 ? " day (" : " days (");
		}
	}
	put_date(out[0]);
	std_puts(")");
	std_reason();
	return GATE_UNAVAILABLE;
}

GATE_EXPORT(probe) int probe(void) {
	proto_start();
	return check();
}
