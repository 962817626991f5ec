package manifest

import (
	"bytes"
	"crypto/sha256"
	"os"
	"reflect"
	"testing"
)

// fuzzCacheKey is the key every fuzzed entry is for.
var fuzzCacheKey = [sha256.Size]byte{0xfa, 0xce}

// fuzzCacheLimits are small, so that the fuzzer reaches the caps.
var fuzzCacheLimits = Limits{MaxTools: 50, MaxServers: 50, MaxArrayLen: 20, MaxKeysPerTable: 20, MaxDescription: 200}

// cacheSeeds are manifests to start from: the corpus and generated ones.
func cacheSeeds(f *testing.F) [][]byte {
	var out [][]byte
	for _, dir := range []string{"valid", "invalid"} {
		for _, file := range corpus(f, dir) {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, src)
		}
	}
	return append(out, genFull(0, 1), genFull(3, 2), genFull(5, 3), genTools(2), []byte(upstreamSrc))
}

// FuzzManifestCacheDecode: whatever an entry holds, decodeEntry does not
// panic, and accepts only what encodeEntry writes: an entry it accepts
// re-encodes to the same bytes. Each input is tried as a whole entry and
// as the payload of one with a valid header and checksum, which is what
// lets the fuzzer reach the structure decoder; the seeds are the
// payloads of real entries.
func FuzzManifestCacheDecode(f *testing.F) {
	for _, src := range cacheSeeds(f) {
		m, err := ParseWithLimits("gate.toml", src, fuzzCacheLimits)
		if err != nil {
			continue
		}
		e := encodeEntry(m, fuzzCacheKey)
		f.Add(e[len(cacheMagic)+sha256.Size : len(e)-cacheSumSize])
		f.Add(e)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer checkNoBugs(t)
		for _, e := range [][]byte{b, ctestSeal(fuzzCacheKey, b)} {
			m, err := decodeEntry(e, fuzzCacheKey, fuzzCacheLimits)
			if err != nil {
				if m != nil {
					t.Fatal("a Manifest and an error")
				}
				continue
			}
			if again := encodeEntry(m, fuzzCacheKey); !bytes.Equal(again, e) {
				t.Fatalf("accepted an entry that re-encodes otherwise:\n got %q\nwant %q", e, again)
			}
		}
	})
}

// FuzzManifestCacheRoundTrip: for any document that parses, the entry of
// its Manifest decodes to a deep-equal one (nil and empty told apart).
func FuzzManifestCacheRoundTrip(f *testing.F) {
	for _, src := range cacheSeeds(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer checkNoBugs(t)
		m, err := ParseWithLimits("gate.toml", src, fuzzCacheLimits)
		if err != nil {
			return
		}
		e := encodeEntry(m, fuzzCacheKey)
		got, err := decodeEntry(e, fuzzCacheKey, fuzzCacheLimits)
		if err != nil {
			t.Fatalf("the entry of a parsed manifest does not decode: %v", err)
		}
		if !reflect.DeepEqual(m, got) {
			t.Fatalf("round trip differs:\n got %#v\nwant %#v", got, m)
		}
		if !bytes.Equal(encodeEntry(got, fuzzCacheKey), e) {
			t.Fatal("the decoded manifest encodes otherwise")
		}
	})
}
