/*
 * env.c - the standard "env" probe.
 *
 * Config: "vars", environment variable names separated by commas and/or
 * whitespace. Available iff every one is set and non-empty; otherwise
 * unavailable with the reason "Missing environment variables: A, B",
 * listing every missing, empty or denied name in order. No names at all is
 * a config error.
 */
#include "std.h"

GATE_EXPORT(probe) int probe(void) {
	int32_t n = std_config("env", "vars");
	if (n < 0)
		return GATE_ERROR;

	uint32_t pos = 0, names = 0, len;
	const char *name;
	while (gate_next_item(std_config_buf, (uint32_t)n, &pos, &name, &len)) {
		names++;
		/* With cap 0 the host copies nothing and returns the length, so
		 * > 0 means "set and non-empty"; unset (-1), denied (-2) and empty
		 * (0) all count as missing. */
		if (gate_env(name, len, 0, 0) <= 0)
			std_missing("Missing environment variables: ", name, len, "", 0);
	}
	if (names == 0)
		return std_config_error("env", "vars", "names no variables");
	if (std_shown == 0)
		return GATE_AVAILABLE;
	std_missing_reason();
	return GATE_UNAVAILABLE;
}
