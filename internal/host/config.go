package host

import (
	"iter"
	"sort"
)

// Config is a probe's config, as gate.config reads it: a few keys and
// values from the manifest. It is stored as one sorted slice rather than a
// map because a probe holds it for its whole life and a Gate may hold
// 10,000 probes: a one-key map took about 600 bytes, the slice 48. The
// zero value is empty.
type Config struct {
	kv []string // key, value, key, value, ... sorted by key
}

// NewConfig copies m into a Config.
func NewConfig(m map[string]string) Config {
	switch len(m) {
	case 0:
		return Config{}
	case 1: // a standard probe's: no sort
		for k, v := range m {
			return Config{kv: []string{k, v}}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kv := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		kv = append(kv, k, m[k])
	}
	return Config{kv: kv}
}

// ConfigFromPairs makes a Config of kv, key, value, key, value, ..., and
// keeps kv itself when it is sorted by key with no key twice (as
// probes.ParseShorthandPairs gives it): the caller hands it over. Any other
// kv is copied as NewConfig would copy its map, a later value of a key
// winning.
func ConfigFromPairs(kv []string) Config {
	if len(kv) == 0 {
		return Config{}
	}
	sorted := len(kv)%2 == 0
	for i := 2; sorted && i < len(kv); i += 2 {
		sorted = kv[i-2] < kv[i]
	}
	if sorted {
		return Config{kv: kv}
	}
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return NewConfig(m)
}

// Lookup returns the value of key and whether it is set.
func (c Config) Lookup(key string) (string, bool) {
	n := len(c.kv) / 2
	i := sort.Search(n, func(i int) bool { return c.kv[2*i] >= key })
	if i < n && c.kv[2*i] == key {
		return c.kv[2*i+1], true
	}
	return "", false
}

// Values yields the config's values, in the order of their keys.
func (c Config) Values() iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := 1; i < len(c.kv); i += 2 {
			if !yield(c.kv[i]) {
				return
			}
		}
	}
}

// Len is the number of keys.
func (c Config) Len() int { return len(c.kv) / 2 }

// Map returns a copy of the config as a map.
func (c Config) Map() map[string]string {
	m := make(map[string]string, c.Len())
	for i := 0; i+1 < len(c.kv); i += 2 {
		m[c.kv[i]] = c.kv[i+1]
	}
	return m
}
