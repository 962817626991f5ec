/*
 * requires.c - the quickstart's composite probe: several questions for one
 * tool, asked in order, where a standard probe asks one.
 *
 * Config (every key optional; lists are separated by commas and/or
 * whitespace):
 *
 *   env          environment variables that must be set and non-empty
 *   imports      gate.import specs that must be importable
 *                ("py:psycopg2", "bin:docker", "lib:libcuda.so.1")
 *   dial         addresses that must accept a connection
 *                ("127.0.0.1:6379", "unix:/var/run/docker.sock")
 *   reason_env, reason_imports, reason_dial
 *                the reason to give, instead of the default, when that kind
 *                of check fails; "{}" in it stands for what failed. The
 *                defaults are "Missing environment variables: {}",
 *                "Missing imports: {}" and "{}", where {} is "A, B",
 *                "py:x, bin:y" and "ADDR: connection refused".
 *   transient    dial outcomes ("refused", "timeout", "unreachable") that
 *                make the probe raise (return GATE_ERROR with the reason)
 *                instead of answering unavailable.
 *
 * The kinds are checked in the order env, imports, dial, and the first
 * kind that fails gives the answer: the cheap questions first, and no dial
 * for a tool that could not run anyway. Every variable and import of the
 * failing kind is listed; dials stop at the first address that fails.
 *
 * Why "transient": gate serves a tool's last good answer through an error
 * for a grace window, but never through an honest "unavailable", which is
 * final for its TTL. A dependency that blinks (a flaky network) should
 * raise; one that is simply absent should say no.
 *
 * A config that asks nothing, names an unknown transient outcome, lists
 * nothing under a key it sets, names a bad address or holds a list longer
 * than 4 KiB is an error: the probe can't answer the question it was meant
 * to ask.
 *
 * Built by build.sh (next to this file) with the flags of probes/build.sh.
 */
#include "gate.h"

#define LIST_MAX 4096 /* the longest list accepted per key */
#define WORD_MAX 64   /* the longest "transient" value accepted */
#define TAIL 40       /* room kept for ", and N more" or ": timed out" */
/* What failed takes at most half the reason, leaving the rest to the
 * heading or the override around it. */
#define DETAIL_MAX (GATE_REASON_MAX / 2)

/* Each run starts from zero: gate may call probe() again on this instance. */
static char env_list[LIST_MAX], import_list[LIST_MAX], dial_list[LIST_MAX];
static int32_t env_len, import_len, dial_len;
static char words[WORD_MAX];
static char override_buf[GATE_REASON_MAX];
static char detail_buf[DETAIL_MAX];
static char reason_buf[GATE_REASON_MAX];
static gate_sb detail, reason;
static uint32_t shown, dropped;

/* The transient dial outcomes, as a bit per negated status. */
static uint32_t transient;
#define BIT(status) (1u << (uint32_t)(-(status)))

/*
 * finish hands the reason built in reason_buf to the host and returns
 * status. A raise is also logged: gate reports a raised probe by its own
 * error message ("returned 2"), and the log keeps this probe's words.
 */
static int finish(int status) {
	gate_sb_reason(&reason);
	if (status == GATE_ERROR)
		gate_log(GATE_LOG_WARN, reason.buf, reason.len);
	return status;
}

/* same reports whether s[0..n) is the NUL-terminated word w. */
static int same(const char *s, uint32_t n, const char *w) {
	uint32_t i = 0;
	for (; i < n; i++)
		if (w[i] != s[i])
			return 0;
	return w[i] == 0;
}

/*
 * config_error sets the reason `requires probe: config "KEY" WHAT` followed
 * by s[0..n) and a closing quote when s is given, and returns GATE_ERROR.
 */
static int config_error(const char *key, const char *what, const char *s, uint32_t n) {
	gate_sb_init(&reason, reason_buf, sizeof reason_buf);
	gate_sb_puts(&reason, "requires probe: config \"");
	gate_sb_puts(&reason, key);
	gate_sb_puts(&reason, "\" ");
	gate_sb_puts(&reason, what);
	if (s) {
		gate_sb_put(&reason, s, n);
		gate_sb_puts(&reason, "\"");
	}
	return finish(GATE_ERROR);
}

/*
 * read_list reads the list under key into buf. It returns the length, or
 * GATE_NOT_SET when the key is absent, or -2 after setting a reason when
 * the value is too long or lists nothing.
 */
static int32_t read_list(const char *key, char *buf, uint32_t cap) {
	int32_t n = gate_config_str(key, buf, cap);
	if (n < 0)
		return GATE_NOT_SET;
	if ((uint32_t)n > cap) {
		config_error(key, "is longer than the 4096 bytes this probe reads", 0, 0);
		return -2;
	}
	uint32_t pos = 0, len;
	const char *item;
	if (!gate_next_item(buf, (uint32_t)n, &pos, &item, &len)) {
		config_error(key, "lists nothing; leave it out instead", 0, 0);
		return -2;
	}
	return n;
}

/* read_transient parses "transient"; GATE_OK, or GATE_ERROR with a reason. */
static int read_transient(void) {
	int32_t n = gate_config_str("transient", words, sizeof words);
	if (n < 0)
		return GATE_OK;
	if ((uint32_t)n > sizeof words)
		return config_error("transient", "is too long: want some of refused, timeout, unreachable", 0, 0);
	uint32_t pos = 0, len;
	const char *w;
	while (gate_next_item(words, (uint32_t)n, &pos, &w, &len)) {
		if (same(w, len, "refused"))
			transient |= BIT(GATE_REFUSED);
		else if (same(w, len, "timeout"))
			transient |= BIT(GATE_TIMEOUT);
		else if (same(w, len, "unreachable"))
			transient |= BIT(GATE_UNREACHABLE);
		else
			return config_error("transient", "names an unknown outcome (want refused, timeout or unreachable): \"", w, len);
	}
	return GATE_OK;
}

/*
 * fail adds item[0..n) and suffix to the list of what failed, "A, B, C".
 * Items that no longer fit are counted and reported as ", and N more".
 */
static void fail(const char *item, uint32_t n, const char *suffix) {
	uint32_t slen = gate_strlen(suffix);
	if (shown == 0) {
		/* The first item is always shown, if need be cut short. */
		if (n + slen + TAIL > gate_sb_room(&detail)) {
			gate_sb_put(&detail, item, gate_sb_room(&detail) - slen - TAIL - 3);
			gate_sb_puts(&detail, "...");
		} else {
			gate_sb_put(&detail, item, n);
		}
	} else if (dropped || 2 + n + slen + TAIL > gate_sb_room(&detail)) {
		dropped++;
		return;
	} else {
		gate_sb_puts(&detail, ", ");
		gate_sb_put(&detail, item, n);
	}
	gate_sb_puts(&detail, suffix);
	shown++;
}

/*
 * answer sets the reason, the override under key with each "{}" replaced
 * by what failed, or else heading followed by what failed, and returns
 * status.
 */
static int answer(const char *key, const char *heading, int status) {
	if (dropped) {
		gate_sb_puts(&detail, ", and ");
		gate_sb_putu(&detail, dropped);
		gate_sb_puts(&detail, " more");
	}
	gate_sb_init(&reason, reason_buf, sizeof reason_buf);
	int32_t n = gate_config_str(key, override_buf, sizeof override_buf);
	if (n > 0) {
		uint32_t len = (uint32_t)n < sizeof override_buf ? (uint32_t)n : sizeof override_buf;
		uint32_t start = 0;
		for (uint32_t i = 0; i + 1 < len; i++) {
			if (override_buf[i] == '{' && override_buf[i + 1] == '}') {
				gate_sb_put(&reason, override_buf + start, i - start);
				gate_sb_put(&reason, detail.buf, detail.len);
				start = i + 2;
				i++;
			}
		}
		gate_sb_put(&reason, override_buf + start, len - start);
	} else {
		gate_sb_puts(&reason, heading);
		gate_sb_put(&reason, detail.buf, detail.len);
	}
	return finish(status);
}

GATE_EXPORT(probe) int probe(void) {
	gate_sb_init(&detail, detail_buf, sizeof detail_buf);
	shown = dropped = transient = 0;

	if (read_transient() != GATE_OK)
		return GATE_ERROR;
	if ((env_len = read_list("env", env_list, LIST_MAX)) == -2 ||
	    (import_len = read_list("imports", import_list, LIST_MAX)) == -2 ||
	    (dial_len = read_list("dial", dial_list, LIST_MAX)) == -2)
		return GATE_ERROR;
	if (env_len < 0 && import_len < 0 && dial_len < 0) {
		gate_sb_init(&reason, reason_buf, sizeof reason_buf);
		gate_sb_puts(&reason, "requires probe: config names nothing to check: set env, imports and/or dial");
		return finish(GATE_ERROR);
	}

	uint32_t pos, len;
	const char *item;

	/* With cap 0 the host copies nothing and returns the length, so > 0
	 * means "set and non-empty"; unset, denied and empty all count as
	 * missing. */
	pos = 0;
	while (env_len > 0 && gate_next_item(env_list, (uint32_t)env_len, &pos, &item, &len))
		if (gate_env(item, len, 0, 0) <= 0)
			fail(item, len, "");
	if (shown)
		return answer("reason_env", "Missing environment variables: ", GATE_UNAVAILABLE);

	pos = 0;
	while (import_len > 0 && gate_next_item(import_list, (uint32_t)import_len, &pos, &item, &len)) {
		int32_t r = gate_import(item, len);
		if (r != GATE_OK)
			fail(item, len, r == GATE_UNKNOWN_SCHEME ? " (unknown scheme)" : "");
	}
	if (shown)
		return answer("reason_imports", "Missing imports: ", GATE_UNAVAILABLE);

	pos = 0;
	while (dial_len > 0 && gate_next_item(dial_list, (uint32_t)dial_len, &pos, &item, &len)) {
		int32_t r = gate_dial(item, len, 0);
		if (r == GATE_OK)
			continue;
		/* The host records a better reason for a denial: the missing grant. */
		if (r == GATE_DENIED)
			return GATE_UNAVAILABLE;
		if (r == GATE_BAD_ADDRESS)
			return config_error("dial", "names a bad address (want host:port or unix:/path): \"", item, len);
		fail(item, len, "");
		gate_sb_puts(&detail, ": ");
		gate_sb_puts(&detail, gate_dial_status_text(r));
		int raise = r < 0 && r > -32 && (transient & BIT(r));
		return answer("reason_dial", "", raise ? GATE_ERROR : GATE_UNAVAILABLE);
	}
	return GATE_AVAILABLE;
}
