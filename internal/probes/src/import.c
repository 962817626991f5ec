/*
 * import.c - the standard "import" probe.
 *
 * Config: "specs", import specs ("bin:docker", "py:psycopg2",
 * "lib:libpq.so.5", ...) separated by commas and/or whitespace. Available
 * iff every one is importable; otherwise unavailable with the reason
 * "Missing imports: py:psycopg2, bin:docker", where a spec whose scheme the
 * host doesn't know is followed by " (unknown scheme)". Denied specs count
 * as missing. No specs at all is a config error.
 */
#include "std.h"

GATE_EXPORT(probe) int probe(void) {
	int32_t n = std_config("import", "specs");
	if (n < 0)
		return GATE_ERROR;

	uint32_t pos = 0, count = 0, len;
	const char *spec;
	while (gate_next_item(std_config_buf, (uint32_t)n, &pos, &spec, &len)) {
		count++;
		int32_t r = gate_import(spec, len);
		if (r != GATE_OK) {
			int unknown = r == GATE_UNKNOWN_SCHEME;
			std_missing("Missing imports: ", spec, len, " (unknown scheme)",
				    unknown ? 17 : 0);
		}
	}
	if (count == 0)
		return std_config_error("import", "specs", "names no imports");
	if (std_shown == 0)
		return GATE_AVAILABLE;
	std_missing_reason();
	return GATE_UNAVAILABLE;
}
