package host

import "sort"

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

// Lookup returns the value of key and whether it is set.
func (c Config) Lookup(key string) (string, bool) {
	n := len(c.kv) / 2
	i := sort.Search(n, func(i int) bool { return c.kv[2*i] >= key })
	if i < n && c.kv[2*i] == key {
		return c.kv[2*i+1], true
	}
	return "", false
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
