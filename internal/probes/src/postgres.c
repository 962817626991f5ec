/*
 * postgres.c - the standard "postgres" probe (ABI v2).
 *
 * Config: "addr", as gate_connect takes it ("host:port" or
 * "unix:/path/.s.PGSQL.5432"); optional "user" (default "postgres"),
 * "database" (default: the user) and "timeout_ms" (default 0: as long as
 * the budget allows), applied to each wait.
 *
 * It starts the PostgreSQL protocol as pg_isready does: a version 3.0
 * StartupMessage (user, database, application_name=gate-probe), then reads
 * what the server answers, without ever sending a password:
 *
 *   an authentication request (password, SASL, ...)  -> available: the
 *       server accepts connections and asks who we are
 *   AuthenticationOk (trust) ... ReadyForQuery        -> available; the
 *       probe then sends Terminate
 *   ErrorResponse 57P03 (starting up, shutting down) or 53300 (too many
 *       connections)                                 -> raise: back soon
 *   any other ErrorResponse (28xxx the role or pg_hba.conf rejects us,
 *       3D000 no such database, ...)                 -> unavailable
 *       "postgres ADDR: FATAL 28000: <message>"
 *   refused, unreachable                             -> unavailable
 *   timed out, reset, closed before answering        -> raise
 *
 * pg_isready stops at the first authentication request; this probe reads
 * on after AuthenticationOk because a trusting server sends it before it
 * looks up the database and role, so only then does "no such database"
 * show.
 */
#include "proto.h"

static char addr[512];
static char user[128];
static char database[128];

/* The StartupMessage: length, version, then NUL-terminated pairs. */
static char startup[8 + 5 + sizeof user + 9 + sizeof database + 17 + 11 + 1];
static uint32_t startup_len;

static void put(const char *s, uint32_t n) {
	for (uint32_t i = 0; i < n; i++)
		startup[startup_len++] = s[i];
}

/* put_z appends a string and its NUL terminator. */
static void put_z(const char *s, uint32_t n) {
	put(s, n);
	startup[startup_len++] = 0;
}

static void put_be32(char *p, uint32_t v) {
	p[0] = (char)(v >> 24);
	p[1] = (char)(v >> 16);
	p[2] = (char)(v >> 8);
	p[3] = (char)v;
}

static uint32_t be32(const char *p) {
	return (uint32_t)(unsigned char)p[0] << 24 | (uint32_t)(unsigned char)p[1] << 16 |
	       (uint32_t)(unsigned char)p[2] << 8 | (uint32_t)(unsigned char)p[3];
}

static int has_nul(const char *s, uint32_t n) {
	for (uint32_t i = 0; i < n; i++)
		if (s[i] == 0)
			return 1;
	return 0;
}

/*
 * skip drops n bytes of the stream (a message the probe has no use for,
 * however long). It returns 1, 0 when the peer closed, or a status.
 */
static int32_t skip(int32_t h, uint32_t n, int32_t timeout_ms) {
	for (;;) {
		uint32_t have = proto_in_len();
		if (have >= n) {
			proto_in_start += n;
			return 1;
		}
		n -= have;
		proto_in_start = proto_in_end;
		int32_t r = proto_fill(h, timeout_ms);
		if (r <= 0)
			return r;
	}
}

/* no_answer explains a read that got nothing (r <= 0). */
static int no_answer(int32_t r) {
	if (r == 0)
		return proto_say("closed the connection before answering", GATE_ERROR);
	return proto_failed(r, "waiting for an answer");
}

/* is reports whether s[0..n) is lit, a NUL-terminated string. */
static int is(const char *s, uint32_t n, const char *lit) {
	uint32_t i = 0;
	for (; i < n && lit[i]; i++)
		if (s[i] != lit[i])
			return 0;
	return i == n && !lit[i];
}

/*
 * error_response judges an ErrorResponse whose first n bytes of body are at
 * p (fields: a type byte, a NUL-terminated value; a 0 byte ends them).
 */
static int error_response(const char *p, uint32_t n) {
	const char *sev = 0, *code = 0, *msg = 0;
	uint32_t sev_n = 0, code_n = 0, msg_n = 0;
	uint32_t i = 0;
	while (i < n && p[i] != 0) {
		char k = p[i++];
		uint32_t start = i;
		while (i < n && p[i] != 0)
			i++;
		/* V is the severity in English; S may be translated. */
		if (k == 'V' || (k == 'S' && !sev)) {
			sev = p + start;
			sev_n = i - start;
		} else if (k == 'C') {
			code = p + start;
			code_n = i - start;
		} else if (k == 'M') {
			msg = p + start;
			msg_n = i - start;
		}
		i++;
	}
	int result = GATE_UNAVAILABLE;
	if (code && (is(code, code_n, "57P03") || is(code, code_n, "53300")))
		result = GATE_ERROR;
	proto_again();
	if (sev) {
		std_put_cut(sev, sev_n, 512);
		std_puts(" ");
	}
	std_put_cut(code ? code : "(no SQLSTATE)", code ? code_n : 13, 512);
	if (msg) {
		std_puts(": ");
		std_put_cut(msg, msg_n, 0);
	}
	std_reason();
	return result;
}

static int check(void) {
	int32_t an = proto_config("postgres", "addr", addr, sizeof addr);
	if (an < 0)
		return GATE_ERROR;
	if (an == 0)
		return std_config_error("postgres", "addr", "is not set");
	int32_t un = proto_config("postgres", "user", user, sizeof user);
	if (un < 0)
		return GATE_ERROR;
	if (un == 0) {
		const char *def = "postgres";
		for (un = 0; def[un]; un++)
			user[un] = def[un];
	}
	int32_t dn = proto_config("postgres", "database", database, sizeof database);
	if (dn < 0)
		return GATE_ERROR;
	if (has_nul(user, (uint32_t)un))
		return std_config_error("postgres", "user", "must not hold a NUL byte");
	if (has_nul(database, (uint32_t)dn))
		return std_config_error("postgres", "database", "must not hold a NUL byte");
	int32_t timeout_ms = std_timeout("postgres");
	if (timeout_ms < 0)
		return GATE_ERROR;

	startup_len = 4;
	put("\0\3\0\0", 4); /* protocol 3.0 */
	put_z("user", 4);
	put_z(user, (uint32_t)un);
	put_z("database", 8);
	if (dn > 0)
		put_z(database, (uint32_t)dn);
	else
		put_z(user, (uint32_t)un);
	put_z("application_name", 16);
	put_z("gate-probe", 10);
	startup[startup_len++] = 0;
	put_be32(startup, startup_len);

	proto_target("postgres ", addr, (uint32_t)an);
	int32_t h = gate_connect(addr, (uint32_t)an, 0, timeout_ms);
	if (h <= 0)
		return proto_failed(h, "connecting");
	int32_t r = gate_send(h, startup, startup_len);
	if (r != (int32_t)startup_len)
		return proto_failed(r < 0 ? r : GATE_CLOSED, "sending");

	/*
	 * A trusting server sends AuthenticationOk, a dozen ParameterStatus,
	 * BackendKeyData and ReadyForQuery; 64 messages is plenty.
	 */
	for (int i = 0; i < 64; i++) {
		if ((r = proto_need(h, 5, timeout_ms)) <= 0)
			return no_answer(r);
		const char *head = proto_in + proto_in_start;
		char type = head[0];
		uint32_t len = be32(head + 1);
		if (len < 4 || len > (1u << 20))
			break;
		proto_in_start += 5;
		uint32_t body = len - 4;
		switch (type) {
		case 'R':
			if (body < 4)
				goto strange;
			if ((r = proto_need(h, 4, timeout_ms)) <= 0)
				return no_answer(r);
			if (be32(proto_in + proto_in_start) != 0) {
				/* It asks for a password: it accepts connections. */
				gate_close(h);
				return GATE_AVAILABLE;
			}
			break; /* AuthenticationOk: read on */
		case 'Z':
			gate_send(h, "X\0\0\0\4", 5); /* Terminate */
			gate_close(h);
			return GATE_AVAILABLE;
		case 'E': {
			uint32_t n = body < PROTO_IN_MAX ? body : PROTO_IN_MAX;
			if ((r = proto_need(h, n, timeout_ms)) <= 0)
				return no_answer(r);
			return error_response(proto_in + proto_in_start, n);
		}
		case 'S': /* ParameterStatus */
		case 'K': /* BackendKeyData */
		case 'N': /* NoticeResponse */
		case 'v': /* NegotiateProtocolVersion */
			break;
		default:
			goto strange;
		}
		if ((r = skip(h, body, timeout_ms)) <= 0)
			return no_answer(r);
	}
strange:
	return proto_say("unexpected answer; is it a PostgreSQL server?", GATE_UNAVAILABLE);
}

GATE_EXPORT(probe) int probe(void) {
	proto_start();
	return check();
}
