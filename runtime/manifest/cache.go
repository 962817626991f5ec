package manifest

// The manifest cache keeps parsed, checked manifests on disk, as gate
// already keeps compiled probes and Python's facts, so that a process
// that loads a manifest some earlier process loaded (gatectl check and
// gatectl schema, run by an agent launcher at every start) reads the
// result instead of parsing again: for 10,000 tools, a few milliseconds
// instead of some 60.
//
// An entry holds a key, a SHA-256 of everything the result depends on
// (cacheMeta, cacheFullKey): the format, the path as given and as made
// absolute (the Manifest records both, and resolves relative paths
// against the file's directory), the limits, the running program's
// identity (so that a rebuilt gate, whose checks may differ, never trusts
// what an older one wrote) and the file's bytes; it is used only when
// that key is the one computed now. With it are the Manifest in a compact
// binary form (cachecodec.go) and a checksum of the whole, so that a
// damaged entry is noticed rather than read. An entry is named by a hash
// of the same things but with the bytes' length and CRC in place of the
// bytes (cacheName), so that it can be read and decoded while the key is
// being computed. Only a
// successful parse is stored: an error is reported from the file every
// time, with its source lines. Anything wrong with an entry or its
// directory means a parse, as without the cache.

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/gate-dev/gate/internal/cachedir"
)

// cacheSubdir is the entries' directory inside the cache directory,
// versioned so that a format change never reads older entries (v2:
// servers' upstreams; v3: probes' http, secrets and insecure grants,
// tls_ca and proxy; v4: each secret with its destinations; v5: a tool's
// toolset; v6: the availability policy keys; v7: a server's breaker; v8: an upstream's transport,
// headers, oauth and pin; v9: the codec built from the Manifest's types; v10: runtime.max_runs).
const cacheSubdir = "gate-manifest-v10"

// cacheFormat is part of every key; bump it (and cacheMagic, and
// cacheSubdir) whenever the entry format or the meaning of a Manifest
// field changes.
const cacheFormat = 10

// cacheMaxEntries bounds the entries kept; past it, writing one removes
// the oldest written, down to three quarters of it so that pruning is
// rare.
var cacheMaxEntries = 64

// Counters for tests: loads answered from an entry, loads that parsed,
// and entries written.
var cacheHits, cacheMisses, cacheWrites atomic.Int64

// LoadCached is LoadWithLimits with a cache of parsed manifests in
// cacheDir (normally the engine's cache directory: $GATE_CACHE_DIR or the
// user cache directory, see runtime.EngineConfig.WithCacheDir), kept in
// its gate-manifest-v10 subdirectory. Parsing and checking a 10,000-tool
// manifest takes tens of milliseconds, most of a `gatectl check`; an agent
// launcher runs that at every start, on the same file.
//
// The file is always read (ReadFile, as LoadWithLimits does). If an entry
// for exactly these bytes, this path (as given and as resolved from the
// working directory), these limits and this build of the running program
// exists, the Manifest is decoded from it: the same value ParseWithLimits
// would return. Otherwise the file is parsed as LoadWithLimits does and,
// only if it parses, an entry is written. Errors are never cached, so an
// invalid manifest reports the same Errors on every load.
//
// The cache is an optimisation and never a cause of failure: an entry or
// directory that is damaged, oversized, not a regular file, or writable
// or owned by another user is ignored (and the entry rewritten where
// that is safe), and where the running program cannot be identified
// nothing is cached. cacheDir "" is exactly LoadWithLimits.
func LoadCached(path string, lim Limits, cacheDir string) (*Manifest, error) {
	if cacheDir == "" {
		return LoadWithLimits(path, lim)
	}
	src, err := ReadFile(path, lim)
	if err != nil {
		return nil, err
	}
	meta, ok := cacheMeta(path, lim)
	var name, key [sha256.Size]byte
	dir := filepath.Join(cacheDir, cacheSubdir)
	if ok {
		// The key hashes all of src (2-3 ms for 10,000 tools), the name
		// only its length and CRC: the entry is found, read and decoded
		// while the key is computed, and used only if the key inside it
		// is the one computed.
		keyc := make(chan [sha256.Size]byte, 1)
		go func() { keyc <- cacheFullKey(meta, src) }()
		name = cacheName(meta, src)
		m, stored, err := cacheLoad(dir, name, lim)
		key = <-keyc
		if err == nil && stored == key {
			cacheHits.Add(1)
			return m, nil
		}
	}
	cacheMisses.Add(1)
	m, err := ParseWithLimits(path, src, lim)
	if err != nil {
		return nil, err
	}
	if ok && cacheStore(dir, name, key, lim, m) == nil {
		cacheWrites.Add(1)
	}
	return m, nil
}

// exeIdentity describes the running program, so that entries written by
// another build of it are never read. A variable so that tests can
// pretend to be another build.
var exeIdentity = executableIdentity

// cacheMeta is what, besides the bytes, a parse of a manifest at path
// within lim depends on: the format, the path as given and made absolute
// (from the working directory), the resolved limits and the running
// program, each part length-prefixed so that no two inputs share it. ok
// is false when that cannot be told, and nothing may be cached.
func cacheMeta(path string, lim Limits) (meta []byte, ok bool) {
	exe, ok := exeIdentity()
	if !ok {
		return nil, false
	}
	abs := ""
	if path != "" {
		var err error
		if abs, err = filepath.Abs(path); err != nil {
			return nil, false
		}
	} else if abs, ok = workingDir(); !ok {
		return nil, false
	}
	field := func(s string) {
		meta = binary.AppendUvarint(meta, uint64(len(s)))
		meta = append(meta, s...)
	}
	field(fmt.Sprintf("gate manifest cache %d", cacheFormat))
	field(path)
	field(abs)
	r := lim.resolved()
	for _, v := range []int64{r.MaxBytes, int64(r.MaxValues), int64(r.MaxKeysPerTable), int64(r.MaxArrayLen),
		int64(r.MaxTools), int64(r.MaxServers), int64(r.MaxDescription)} {
		meta = binary.AppendVarint(meta, v)
	}
	field(exe)
	return meta, true
}

// cacheFullKey is the key of src under meta: a SHA-256 of both, which an
// entry must hold to be used.
func cacheFullKey(meta, src []byte) (key [sha256.Size]byte) {
	h := sha256.New()
	h.Write(meta)
	h.Write([]byte("bytes"))
	h.Write(binary.AppendUvarint(nil, uint64(len(src))))
	h.Write(src)
	h.Sum(key[:0])
	return key
}

// cacheName names the entry for src under meta: a SHA-256 of meta and
// of src's length and CRC-32C, which is cheap to compute and different
// for different contents but for a CRC collision (whose entries would
// take each other's place, their keys differing).
func cacheName(meta, src []byte) (name [sha256.Size]byte) {
	h := sha256.New()
	h.Write(meta)
	h.Write([]byte("name"))
	h.Write(binary.AppendUvarint(nil, uint64(len(src))))
	h.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(src, castagnoli)))
	h.Sum(name[:0])
	return name
}

// workingDir is the directory a manifest without a path is relative to.
func workingDir() (string, bool) {
	wd, err := os.Getwd()
	return wd, err == nil
}

// cacheEntryMax caps an entry's size: a few times the largest manifest
// lim allows (an entry is about the size of its manifest), and at most
// 1 GiB and a bit.
func cacheEntryMax(lim Limits) int64 {
	return min(lim.resolved().MaxBytes, 256<<20)*4 + 1<<20
}

// cacheEntryPath is where the entry named name lives.
func cacheEntryPath(dir string, name [sha256.Size]byte) string {
	return filepath.Join(dir, fmt.Sprintf("%x", name[:]))
}

// cacheLoad returns the Manifest of the entry named name and the key it
// holds, or an error if there is none or it cannot be trusted.
func cacheLoad(dir string, name [sha256.Size]byte, lim Limits) (*Manifest, [sha256.Size]byte, error) {
	if err := cachedir.CheckDir(dir); err != nil {
		return nil, [sha256.Size]byte{}, err
	}
	b, err := cachedir.Read(cacheEntryPath(dir, name), cacheEntryMax(lim))
	if err != nil {
		return nil, [sha256.Size]byte{}, err
	}
	return decodeEntryKey(b, lim)
}

// cacheStore writes the entry named name for key, holding m; an entry
// that would not decode (over a cap: see decodeEntry) is not written.
func cacheStore(dir string, name, key [sha256.Size]byte, lim Limits, m *Manifest) error {
	b := encodeEntry(m, key)
	if int64(len(b)) > cacheEntryMax(lim) {
		return errors.New("entry too large")
	}
	if _, err := decodeEntry(b, key, lim); err != nil {
		return err
	}
	if err := cachedir.Write(dir, cacheEntryPath(dir, name), b); err != nil {
		return err
	}
	// Only after a write, that is after a parse, which costs far more
	// than a listing.
	cachedir.Prune(dir, cacheMaxEntries, isEntryName)
	return nil
}

// isEntryName reports whether name is an entry's: 64 lower-case hex
// digits.
func isEntryName(name string) bool {
	if len(name) != 2*sha256.Size {
		return false
	}
	for i := range len(name) {
		if c := name[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
