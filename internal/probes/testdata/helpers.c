/*
 * helpers.c - a probe that exercises the inline helpers of include/gate.h
 * that the standard probes don't use (TestCHeaderHelpers builds and runs
 * it). It splits config "list", writes each item and its length as
 * "item<len>|" into a 16-byte gate_sb, sets that as the reason, logs the
 * words for the status of dialing config "addr", and is available iff
 * "bin:x" is importable.
 */
#include "gate.h"

static char buf[16];
static char cfg[256];

GATE_EXPORT(probe) int probe(void) {
	gate_sb b;
	gate_sb_init(&b, buf, sizeof buf);
	int32_t n = gate_config_str("list", cfg, sizeof cfg);
	if (n < 0)
		n = 0;
	uint32_t pos = 0, len;
	const char *item;
	while (gate_next_item(cfg, (uint32_t)n, &pos, &item, &len)) {
		gate_sb_put(&b, item, len);
		gate_sb_putu(&b, len);
		gate_sb_puts(&b, "|");
	}
	gate_sb_reason(&b);
	n = gate_config_str("addr", cfg, sizeof cfg);
	if (n > 0)
		gate_log_str(GATE_LOG_WARN, gate_dial_status_text(gate_dial(cfg, (uint32_t)n, 0)));
	return gate_import_str("bin:x") == GATE_OK ? GATE_AVAILABLE : GATE_UNAVAILABLE;
}
