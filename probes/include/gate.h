/*
 * gate.h - the C SDK for gate probes (probe ABI version 1).
 *
 * A probe is a small WebAssembly module that tells gate whether an agent
 * tool can run here. gate runs it in a sandbox under a 100 ms budget; the
 * probe asks the host questions through the imports below (is this
 * environment variable set? can I connect to this address? is this program
 * or library installed?) and answers "available" or "unavailable", with a
 * human-readable reason when it says no.
 *
 * This header is all a C probe needs: no libc, no WASI. It declares the
 * host imports (module "gate"), the status constants and a few small
 * inline helpers for strings, lists and reasons.
 *
 * A complete probe:
 *
 *     #include "gate.h"
 *
 *     GATE_EXPORT(probe) int probe(void) {
 *         if (gate_env_str("DATABASE_URL", 0, 0) > 0)
 *             return GATE_AVAILABLE;
 *         gate_reason_str("DATABASE_URL is not set");
 *         return GATE_UNAVAILABLE;
 *     }
 *
 * Build it (clang and wasm-ld from LLVM; Debian: apt-get install clang lld):
 *
 *     clang --target=wasm32 -mcpu=mvp -nostdlib -ffreestanding -Oz \
 *         -I path/to/probes/include \
 *         -Wl,--no-entry -Wl,--export=probe -Wl,--strip-all \
 *         -Wl,--initial-memory=65536 -Wl,--max-memory=65536 \
 *         -Wl,--stack-first -Wl,-z,stack-size=8192 \
 *         -o myprobe.wasm myprobe.c
 *
 * Notes on those flags:
 *   - -nostdlib: there is no libc. With -ffreestanding clang does not turn
 *     your loops into calls to memcpy/memset/strlen; without it (or when you
 *     copy large structs) it may, and the link then fails with "undefined
 *     symbol: memcpy". Either write the loop differently, pass
 *     -mbulk-memory (memcpy/memset become the memory.copy/memory.fill
 *     instructions), or define memcpy/memset yourself. Do not use
 *     -Wl,--allow-undefined: it would turn the mistake into an import that
 *     gate refuses to link.
 *   - --strip-all drops the name and producers sections, so the output is
 *     smaller and the same bytes on every build with the same toolchain.
 *   - One 64 KiB page with a small stack first: a stack overflow runs off
 *     the bottom of memory and traps instead of silently overwriting your
 *     static buffers, and the probe can't grow memory.
 *
 * Costs: a C (or hand-written WAT) probe is a few hundred bytes to ~1 KB,
 * compiles in under 1 ms and runs in a fresh instance in about 15 us. A Go
 * probe built with the Go SDK (probes/sdk) is about 2 MB, takes 0.5-0.9 s
 * to compile (then cached on disk), 70-90 ms to load from that cache in a
 * new process, and ~3 ms and ~3.6 MiB per fresh instance. Prefer C (or the
 * standard env/tcp/import probes) for anything on a hot path.
 *
 * Entry points. Either
 *   - reactor (what this header is for): export "probe", a function
 *     () -> i32 returning GATE_AVAILABLE (0) or GATE_UNAVAILABLE (1); any
 *     other value is an error (GATE_ERROR, 2, by convention); or
 *   - command: export "_start" and exit with 0 (available), 1
 *     (unavailable) or anything else (error).
 * A trap is an error. The module must export its memory as "memory".
 *
 * Strings are (pointer, length) pairs in the probe's memory; nothing needs
 * to be NUL-terminated. Every host function returns an int32 status where
 * negative means "no" (see the GATE_* constants).
 *
 * Denials: gate only answers what the probe's grants allow. When a host
 * function answers GATE_DENIED the host itself records a reason naming the
 * probe and the denied name, and uses it if the probe ends unavailable
 * without setting a reason; so a probe should treat a denial like "missing"
 * and need not explain it.
 */
#ifndef GATE_H
#define GATE_H

#include <stdint.h>

/* GATE_ABI_VERSION is the version of the probe ABI this header describes. */
#define GATE_ABI_VERSION 2

/* Probe results, returned from probe() (or as the exit code of _start). */
#define GATE_AVAILABLE 0   /* the tool can run */
#define GATE_UNAVAILABLE 1 /* the tool can't run; say why with gate_reason */
#define GATE_ERROR 2       /* the probe itself failed (e.g. bad config) */

/* Host function statuses. Negative means "no". */
#define GATE_OK 0                /* dial connected, import importable */
#define GATE_NOT_SET (-1)        /* env var or config key is not set */
#define GATE_NOT_FOUND (-1)      /* import: not found */
#define GATE_DENIED (-2)         /* the probe's grants don't allow it */
#define GATE_REFUSED (-3)        /* dial: connection refused */
#define GATE_TIMEOUT (-4)        /* dial: timed out */
#define GATE_UNREACHABLE (-5)    /* dial: unreachable or name not resolved */
#define GATE_BAD_ADDRESS (-6)    /* dial: malformed address */
#define GATE_UNKNOWN_SCHEME (-6) /* import: the host knows no such scheme */
/* ABI v2 (streams, HTTP, TLS): */
#define GATE_BAD_REQUEST (-6)    /* http: malformed request or URL */
#define GATE_LIMIT (-7)          /* a per-run bound: handles, bytes in or out */
#define GATE_TLS_FAILED (-8)     /* TLS handshake or verification failed */
#define GATE_CLOSED (-9)         /* the peer reset the connection or broke HTTP */
#define GATE_BAD_HANDLE (-10)    /* not an open handle of this run */

/* Flags for gate_connect and gate_http. */
#define GATE_INSECURE 1 /* skip TLS verification; needs an insecure grant */

/* Log levels for gate_log. */
#define GATE_LOG_DEBUG 0
#define GATE_LOG_INFO 1
#define GATE_LOG_WARN 2
#define GATE_LOG_ERROR 3

/* GATE_REASON_MAX is how many bytes of a reason the host keeps. */
#define GATE_REASON_MAX 1024

/*
 * GATE_EXPORT(name) exports the following function under name, e.g.
 * GATE_EXPORT(probe) int probe(void) { ... }.
 */
#define GATE_EXPORT(name) \
	__attribute__((export_name(#name), visibility("default")))

/* GATE_IMPORT(name) declares a function imported from the "gate" module. */
#define GATE_IMPORT(name) \
	__attribute__((import_module("gate"), import_name(name)))

/* ---- Host imports (module "gate") ---- */

/*
 * gate_env looks up an environment variable. It returns the value's full
 * length (>= 0) and copies min(length, cap) bytes into buf; GATE_NOT_SET if
 * it is not set; GATE_DENIED if the probe may not read it. Pass cap 0 to
 * ask only for the length (0 then means "set but empty").
 */
GATE_IMPORT("env")
int32_t gate_env(const char *name, uint32_t name_len, char *buf, uint32_t cap);

/*
 * gate_dial connects to addr ("host:port" or "unix:/path") and closes the
 * connection at once. It returns GATE_OK if the connection was made,
 * GATE_DENIED, GATE_REFUSED, GATE_TIMEOUT, GATE_UNREACHABLE (including "name
 * not resolved") or GATE_BAD_ADDRESS. timeout_ms <= 0 means "as long as the
 * budget allows"; the host clips any timeout to what is left of the budget.
 */
GATE_IMPORT("dial")
int32_t gate_dial(const char *addr, uint32_t addr_len, int32_t timeout_ms);

/*
 * gate_import asks whether spec can be imported: "bin:docker" (a program on
 * PATH), "py:psycopg2" (a Python module), "lib:libpq.so.5" (a shared
 * library) or a scheme the host registered. It returns GATE_OK,
 * GATE_NOT_FOUND, GATE_DENIED or GATE_UNKNOWN_SCHEME.
 */
GATE_IMPORT("import")
int32_t gate_import(const char *spec, uint32_t spec_len);

/*
 * gate_config reads the probe's string config from the manifest, like
 * gate_env: the value's full length, min(length, cap) bytes copied, or
 * GATE_NOT_SET. Config is never denied.
 */
GATE_IMPORT("config")
int32_t gate_config(const char *key, uint32_t key_len, char *buf, uint32_t cap);

/*
 * gate_reason sets the human-readable reason shown when the probe is
 * unavailable (or failed). A later call replaces an earlier one. The host
 * keeps GATE_REASON_MAX bytes and makes them valid UTF-8.
 */
GATE_IMPORT("reason")
void gate_reason(const char *msg, uint32_t len);

/*
 * gate_log writes a debug log line at one of the GATE_LOG_* levels. The
 * host bounds the length and rate-limits, so don't rely on every line
 * arriving.
 */
GATE_IMPORT("log")
void gate_log(int32_t level, const char *msg, uint32_t len);

/* ---- ABI v2: streams, HTTP, TLS facts (module "gate") ----
 *
 * A probe that imports any of these needs a version-2 host. docs/ABI.md
 * ("Version 2") is the contract; the notes here are the short form.
 * Secrets: write ${secret:NAME} where a granted secret's value belongs (in
 * gate_send's bytes, an HTTP request's header values, body or query); the
 * host substitutes it on the way out, to a destination the secrets grant
 * binds it to (secrets = { NAME = ["127.0.0.1:6379"] }; anywhere else the
 * call answers GATE_DENIED before anything is sent), and puts the
 * placeholder back in place of the value in what comes back. The probe
 * never sees the value.
 *
 * Bounds per run: 8 handles open at once, 32 opened in all; 64 KiB sent
 * (each placeholder counted as 4 KiB, 12 KiB in a URL's query: the most
 * its value can put on the wire), 1 MiB received; an HTTP
 * request of at most 64 KiB with a 16 KiB body; the first 64 KiB of a
 * response body kept. Costs: each call is one host call; a wait
 * (connecting, a peer's answer, an HTTP exchange) costs about 20 us beyond
 * the network, for the execution slot the run gives back and takes again;
 * once a run has sent a secret to a stream's address, a read there that
 * gets less than 12 KiB first waits for the peer's 5 ms of quiet
 * (docs/ABI.md, "Secrets", says why). docs/BENCHMARKS.md has the figures
 * against Go doing the same.
 */

/*
 * gate_connect opens a stream to addr: "host:port", "unix:/path" or
 * "tls:host:port" (TLS, verified). It returns a handle (> 0) or GATE_DENIED,
 * GATE_REFUSED, GATE_TIMEOUT, GATE_UNREACHABLE, GATE_BAD_ADDRESS, GATE_LIMIT
 * (8 open at once, 32 per run) or GATE_TLS_FAILED (gate_last_error says
 * why). flags: 0, or GATE_INSECURE. Handles are closed when the run ends.
 */
GATE_IMPORT("connect")
int32_t gate_connect(const char *addr, uint32_t addr_len, int32_t flags, int32_t timeout_ms);

/*
 * gate_send sends all of buf, with secrets substituted. It returns len, or
 * GATE_NOT_SET (a named secret is not set), GATE_DENIED (not granted, or
 * not bound to this stream's address), GATE_TIMEOUT, GATE_LIMIT (64 KiB
 * out per run), GATE_CLOSED or GATE_BAD_HANDLE.
 */
GATE_IMPORT("send")
int32_t gate_send(int32_t handle, const char *buf, uint32_t len);

/*
 * gate_recv receives what has arrived, up to cap bytes, waiting at most
 * timeout_ms (<= 0: as long as the budget allows). It returns the count
 * (> 0), 0 when the peer has closed, GATE_TIMEOUT (nothing in time; the
 * stream stays usable), GATE_LIMIT (1 MiB in per run), GATE_CLOSED (reset)
 * or GATE_BAD_HANDLE.
 */
GATE_IMPORT("recv")
int32_t gate_recv(int32_t handle, char *buf, uint32_t cap, int32_t timeout_ms);

/* gate_close closes a stream or response: GATE_OK or GATE_BAD_HANDLE. */
GATE_IMPORT("close")
int32_t gate_close(int32_t handle);

/*
 * gate_http makes one HTTP request, written as text:
 *
 *     "GET https://api.example.com/v1/models\n"
 *     "Authorization: Bearer ${secret:OPENAI_API_KEY}\n"
 *     "\n"
 *     (body)
 *
 * The URL is http://, https:// or unix:/socket/path:/request/path. It
 * returns a response handle (> 0) or GATE_NOT_SET, GATE_DENIED,
 * GATE_REFUSED, GATE_TIMEOUT, GATE_UNREACHABLE, GATE_BAD_REQUEST,
 * GATE_LIMIT, GATE_TLS_FAILED or GATE_CLOSED. Redirects are followed within
 * the grants (5 at most).
 */
GATE_IMPORT("http")
int32_t gate_http(const char *req, uint32_t req_len, int32_t flags, int32_t timeout_ms);

/* gate_http_status returns the response's status code or GATE_BAD_HANDLE. */
GATE_IMPORT("http_status")
int32_t gate_http_status(int32_t handle);

/*
 * gate_http_header reads a response header like gate_env: the value's full
 * length, min(length, cap) bytes copied; GATE_NOT_SET if absent. Names are
 * case-insensitive; several values are joined with ", ".
 */
GATE_IMPORT("http_header")
int32_t gate_http_header(int32_t handle, const char *name, uint32_t name_len, char *buf, uint32_t cap);

/*
 * gate_http_body reads the kept body (its first 64 KiB) like gate_env: the
 * kept length, min(length, cap) bytes copied.
 */
GATE_IMPORT("http_body")
int32_t gate_http_body(int32_t handle, char *buf, uint32_t cap);

/*
 * gate_tls reports on a "tls:" stream or an https response: 1 verified, 0
 * not verified (GATE_INSECURE), GATE_NOT_SET if not TLS, GATE_BAD_HANDLE.
 * It writes the leaf certificate's NotAfter (Unix seconds) to out[0] and
 * the seconds left until then (negative once expired) to out[1].
 */
GATE_IMPORT("tls")
int32_t gate_tls(int32_t handle, int64_t out[2]);

/*
 * gate_last_error reads, like gate_env, the host's words for why the run's
 * last failed call failed ("x509: certificate has expired", "connection
 * refused"), secrets redacted; GATE_NOT_SET if none failed.
 */
GATE_IMPORT("last_error")
int32_t gate_last_error(char *buf, uint32_t cap);

/* ---- Inline helpers (cost nothing unless used) ---- */

/* gate_strlen is strlen for NUL-terminated strings (there is no libc). */
static inline uint32_t gate_strlen(const char *s) {
	uint32_t n = 0;
	while (s[n])
		n++;
	return n;
}

/* gate_reason_str sets the reason from a NUL-terminated string. */
static inline void gate_reason_str(const char *msg) {
	gate_reason(msg, gate_strlen(msg));
}

/* gate_log_str logs a NUL-terminated string. */
static inline void gate_log_str(int32_t level, const char *msg) {
	gate_log(level, msg, gate_strlen(msg));
}

/* gate_env_str is gate_env with a NUL-terminated name. */
static inline int32_t gate_env_str(const char *name, char *buf, uint32_t cap) {
	return gate_env(name, gate_strlen(name), buf, cap);
}

/* gate_connect_str is gate_connect with a NUL-terminated address. */
static inline int32_t gate_connect_str(const char *addr, int32_t flags, int32_t timeout_ms) {
	return gate_connect(addr, gate_strlen(addr), flags, timeout_ms);
}

/* gate_send_str sends a NUL-terminated string. */
static inline int32_t gate_send_str(int32_t handle, const char *s) {
	return gate_send(handle, s, gate_strlen(s));
}

/* gate_http_str is gate_http with a NUL-terminated request. */
static inline int32_t gate_http_str(const char *req, int32_t flags, int32_t timeout_ms) {
	return gate_http(req, gate_strlen(req), flags, timeout_ms);
}

/* gate_dial_str is gate_dial with a NUL-terminated address. */
static inline int32_t gate_dial_str(const char *addr, int32_t timeout_ms) {
	return gate_dial(addr, gate_strlen(addr), timeout_ms);
}

/* gate_import_str is gate_import with a NUL-terminated spec. */
static inline int32_t gate_import_str(const char *spec) {
	return gate_import(spec, gate_strlen(spec));
}

/* gate_config_str is gate_config with a NUL-terminated key. */
static inline int32_t gate_config_str(const char *key, char *buf, uint32_t cap) {
	return gate_config(key, gate_strlen(key), buf, cap);
}

/*
 * gate_dial_status_text describes a gate_dial status in words, as used in
 * reasons: "connection refused", "timed out", ...
 */
static inline const char *gate_dial_status_text(int32_t status) {
	switch (status) {
	case GATE_OK:
		return "connected";
	case GATE_DENIED:
		return "denied";
	case GATE_REFUSED:
		return "connection refused";
	case GATE_TIMEOUT:
		return "timed out";
	case GATE_UNREACHABLE:
		return "unreachable or name not resolved";
	case GATE_BAD_ADDRESS:
		return "bad address";
	default:
		return "failed";
	}
}

/*
 * gate_is_sep reports whether c separates list items: a comma, a space or
 * any other ASCII control character (tab, newline, ...).
 */
static inline int gate_is_sep(char c) {
	return c == ',' || (unsigned char)c <= ' ' || c == 0x7F;
}

/*
 * gate_next_item walks a list of items separated by commas and/or
 * whitespace ("A,B", "A B", "A, B\nC"); empty items are skipped. Start with
 * *pos = 0; each call stores the next item in *item and *item_len and
 * returns 1, or returns 0 when there are no more.
 */
static inline int gate_next_item(const char *list, uint32_t len, uint32_t *pos,
				 const char **item, uint32_t *item_len) {
	uint32_t i = *pos;
	while (i < len && gate_is_sep(list[i]))
		i++;
	if (i >= len) {
		*pos = len;
		return 0;
	}
	uint32_t start = i;
	while (i < len && !gate_is_sep(list[i]))
		i++;
	*item = list + start;
	*item_len = i - start;
	*pos = i;
	return 1;
}

/*
 * gate_sb builds a string (a reason, say) in a fixed buffer without ever
 * overflowing it; what doesn't fit is cut off. Initialise with
 * gate_sb_init; the result is buf[0..len), not NUL-terminated.
 */
typedef struct {
	char *buf;
	uint32_t len;
	uint32_t cap;
} gate_sb;

/* gate_sb_init starts an empty string in buf, which holds cap bytes. */
static inline void gate_sb_init(gate_sb *b, char *buf, uint32_t cap) {
	b->buf = buf;
	b->len = 0;
	b->cap = cap;
}

/* gate_sb_room is how many more bytes fit. */
static inline uint32_t gate_sb_room(const gate_sb *b) {
	return b->cap - b->len;
}

/*
 * gate_sb_put appends n bytes of s, or as many as fit; it returns 1 if
 * all of them fitted. When it has to cut, it cuts before a UTF-8
 * continuation byte so that no character is split.
 */
static inline int gate_sb_put(gate_sb *b, const char *s, uint32_t n) {
	uint32_t room = gate_sb_room(b);
	int all = 1;
	if (n > room) {
		n = room;
		all = 0;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	for (uint32_t i = 0; i < n; i++)
		b->buf[b->len + i] = s[i];
	b->len += n;
	return all;
}

/* gate_sb_puts appends a NUL-terminated string (or as much as fits). */
static inline int gate_sb_puts(gate_sb *b, const char *s) {
	return gate_sb_put(b, s, gate_strlen(s));
}

/* gate_sb_putu appends v in decimal (or nothing, if it doesn't fit). */
static inline int gate_sb_putu(gate_sb *b, uint32_t v) {
	char tmp[10];
	uint32_t n = 0;
	do {
		tmp[sizeof tmp - 1 - n] = (char)('0' + v % 10);
		v /= 10;
		n++;
	} while (v);
	if (n > gate_sb_room(b))
		return 0;
	return gate_sb_put(b, tmp + sizeof tmp - n, n);
}

/* gate_sb_reason sets the reason to the string built so far. */
static inline void gate_sb_reason(const gate_sb *b) {
	gate_reason(b->buf, b->len);
}

#endif /* GATE_H */
