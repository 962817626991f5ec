/*
 * std.h - code shared by the standard probes (env, tcp, import). Not part
 * of the SDK: third-party probes need only include/gate.h.
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

#endif /* GATE_STD_H */
