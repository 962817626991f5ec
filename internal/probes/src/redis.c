/*
 * redis.c - the standard "redis" probe (ABI v2).
 *
 * Config: "addr", as gate_connect takes it ("host:port", "unix:/path" or
 * "tls:host:port"); optional "password", the name of a granted secret
 * holding the password; optional "user", an ACL user name (only with
 * "password"); optional "timeout_ms" (default 0: as long as the budget
 * allows), applied to each wait.
 *
 * It sends "AUTH ['user'] '${secret:NAME}'" (the host puts the password
 * in; the probe never sees it) when a password is configured, then "PING",
 * as inline commands in one write, and reads one reply line per command.
 * The single quotes let the password hold spaces, double quotes and
 * backslashes (Redis reads them literally there); only a password with a
 * single quote in it can't be sent this way, since the probe can't escape
 * what it never sees (Redis then answers a protocol error, which the
 * probe reports as credentials rejected). The answers:
 *
 *   +PONG                                -> available
 *   -NOAUTH                              -> unavailable: set password=
 *   an AUTH error (-WRONGPASS, ...)      -> unavailable: credentials rejected
 *   -LOADING, -BUSY, -MASTERDOWN, -TRYAGAIN
 *                                        -> raise: the server will be back
 *   another error                        -> unavailable, with the server's line
 *   refused, unreachable, TLS failed     -> unavailable
 *   timed out, reset, closed first       -> raise
 *
 * Every reason starts "redis ADDR: ", ADDR as configured.
 */
#include "proto.h"

static char addr[512];
static char password[128]; /* a secret's name, not its value */
static char user[128];

/* "AUTH 'user' '${secret:NAME}'\r\nPING\r\n" */
static char cmd[5 + 1 + sizeof user + 2 + 10 + sizeof password + 4 + 6];
static uint32_t cmd_len;

static void cmd_put(const char *s, uint32_t n) {
	for (uint32_t i = 0; i < n; i++)
		cmd[cmd_len++] = s[i];
}

static void cmd_puts(const char *s) {
	cmd_put(s, gate_strlen(s));
}

/* word_is reports whether line[0..n) starts with word followed by a space or its end. */
static int word_is(const char *line, uint32_t n, const char *word) {
	uint32_t w = gate_strlen(word);
	if (n < w)
		return 0;
	for (uint32_t i = 0; i < w; i++)
		if (line[i] != word[i])
			return 0;
	return n == w || line[w] == ' ';
}

/*
 * transient reports whether an error reply (without its '-') says the
 * server is up but can't serve now: loading its data, busy with a script,
 * its master down, a cluster slot moving.
 */
static int transient(const char *e, uint32_t n) {
	return word_is(e, n, "LOADING") || word_is(e, n, "BUSY") ||
	       word_is(e, n, "MASTERDOWN") || word_is(e, n, "TRYAGAIN");
}

/* say_line sets the reason to msg, then the server's line in parentheses. */
static int say_line(const char *msg, const char *line, uint32_t n, int result) {
	proto_again();
	std_puts(msg);
	std_puts(" (");
	std_put_cut(line, n, 2);
	std_puts(")");
	std_reason();
	return result;
}

/* valid_name reports whether a secret's name can go into ${secret:NAME}. */
static int valid_name(const char *s, uint32_t n) {
	for (uint32_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
		      (i > 0 && c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

/* valid_word reports whether s is one word of an inline command. */
static int valid_word(const char *s, uint32_t n) {
	for (uint32_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7F || s[i] == '"' || s[i] == '\'')
			return 0;
	return 1;
}

/* GOT_LINE is reply's "a line arrived", apart from the probe's answers. */
#define GOT_LINE (-1)

/*
 * reply reads one reply line into *line and *n and returns GOT_LINE; or,
 * when none arrives, sets the reason and returns the probe's answer.
 */
static int reply(int32_t h, int32_t timeout_ms, const char **line, uint32_t *n) {
	int32_t r = proto_line(h, timeout_ms, line, n);
	if (r == 1)
		return GOT_LINE;
	if (r == 0)
		return proto_say("closed the connection before answering", GATE_ERROR);
	return proto_failed(r, "waiting for an answer");
}

static int check(void) {
	int32_t an = proto_config("redis", "addr", addr, sizeof addr);
	if (an < 0)
		return GATE_ERROR;
	if (an == 0)
		return std_config_error("redis", "addr", "is not set");
	int32_t pn = proto_config("redis", "password", password, sizeof password);
	if (pn < 0)
		return GATE_ERROR;
	if (!valid_name(password, (uint32_t)pn))
		return std_config_error("redis", "password",
					"must name a secret (an environment variable: letters, digits and _)");
	int32_t un = proto_config("redis", "user", user, sizeof user);
	if (un < 0)
		return GATE_ERROR;
	if (un > 0 && pn == 0)
		return std_config_error("redis", "user", "needs \"password\" too");
	if (!valid_word(user, (uint32_t)un))
		return std_config_error("redis", "user", "must not hold spaces, quotes or control characters");
	int32_t timeout_ms = std_timeout("redis");
	if (timeout_ms < 0)
		return GATE_ERROR;

	proto_target("redis ", addr, (uint32_t)an);
	int32_t h = gate_connect(addr, (uint32_t)an, 0, timeout_ms);
	if (h <= 0)
		return proto_failed(h, "connecting");

	cmd_len = 0;
	if (pn > 0) {
		cmd_puts("AUTH ");
		if (un > 0) {
			cmd_puts("'");
			cmd_put(user, (uint32_t)un);
			cmd_puts("' ");
		}
		cmd_puts("'${secret:");
		cmd_put(password, (uint32_t)pn);
		cmd_puts("}'\r\n");
	}
	cmd_puts("PING\r\n");
	int32_t r = gate_send(h, cmd, cmd_len);
	if (r != (int32_t)cmd_len)
		return proto_failed(r < 0 ? r : GATE_CLOSED, "sending");

	const char *line;
	uint32_t n;
	int got;
	if (pn > 0) {
		if ((got = reply(h, timeout_ms, &line, &n)) != GOT_LINE)
			return got;
		if (!(n == 3 && line[0] == '+' && line[1] == 'O' && line[2] == 'K')) {
			if (n > 0 && line[0] == '-' && transient(line + 1, n - 1))
				return say_line("not ready", line + 1, n - 1, GATE_ERROR);
			if (n > 0 && line[0] == '-')
				return say_line("credentials rejected", line + 1, n - 1, GATE_UNAVAILABLE);
			return say_line("unexpected answer to AUTH; is it a Redis server?", line, n, GATE_UNAVAILABLE);
		}
	}
	if ((got = reply(h, timeout_ms, &line, &n)) != GOT_LINE)
		return got;
	if (n == 5 && line[0] == '+' && line[1] == 'P' && line[2] == 'O' && line[3] == 'N' && line[4] == 'G') {
		gate_close(h);
		return GATE_AVAILABLE;
	}
	if (n > 0 && line[0] == '-') {
		line++;
		n--;
		if (word_is(line, n, "NOAUTH"))
			return proto_say("authentication required (NOAUTH); set password=", GATE_UNAVAILABLE);
		if (word_is(line, n, "WRONGPASS"))
			return say_line("credentials rejected", line, n, GATE_UNAVAILABLE);
		if (transient(line, n))
			return say_line("not ready", line, n, GATE_ERROR);
		proto_again();
		std_put_cut(line, n, 0);
		std_reason();
		return GATE_UNAVAILABLE;
	}
	return say_line("unexpected answer to PING; is it a Redis server?", line, n, GATE_UNAVAILABLE);
}

GATE_EXPORT(probe) int probe(void) {
	proto_start();
	return check();
}
