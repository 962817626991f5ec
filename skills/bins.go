package skills

import "sync"

// binLookups bounds how many binaries a prefetch looks up at once: each
// is a walk of PATH, cheap, but a catalog can name hundreds.
const binLookups = 8

// binCache is the Host a Manager validates with: binary lookups (a walk of
// PATH, file-system I/O that a hung mount could stall) are made before the
// Manager's lock is taken, when a catalog is installed or results are
// cleared, and the validator, which runs under the lock, reads the
// answers. A binary no prefetch saw (a caller's own Validate) is looked up
// on the spot. Variables and the OS are asked of the host directly: they
// are memory.
type binCache struct {
	host Host

	mu    sync.Mutex
	known map[string]bool
}

func newBinCache(host Host) *binCache {
	return &binCache{host: host, known: map[string]bool{}}
}

func (c *binCache) LookupEnv(name string) (string, bool) { return c.host.LookupEnv(name) }

func (c *binCache) OS() string { return c.host.OS() }

func (c *binCache) HasBinary(name string) bool {
	c.mu.Lock()
	ok, found := c.known[name]
	c.mu.Unlock()
	if found {
		return ok
	}
	ok = c.host.HasBinary(name)
	c.mu.Lock()
	c.known[name] = ok
	c.mu.Unlock()
	return ok
}

// prefetch looks up every binary the skills name that c does not know
// yet, a few at a time. It takes no lock of the Manager's.
func (c *binCache) prefetch(skills []*Skill) {
	var names []string
	seen := map[string]bool{}
	c.mu.Lock()
	for _, s := range skills {
		for i := range kinds {
			if kinds[i].from != fromPath {
				continue
			}
			for _, name := range *kinds[i].field(&s.Requirements) {
				if _, found := c.known[name]; !found && !seen[name] {
					seen[name] = true
					names = append(names, name)
				}
			}
		}
	}
	c.mu.Unlock()

	next := make(chan string)
	var wg sync.WaitGroup
	for range min(binLookups, len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range next {
				ok := c.host.HasBinary(name)
				c.mu.Lock()
				c.known[name] = ok
				c.mu.Unlock()
			}
		}()
	}
	for _, name := range names {
		next <- name
	}
	close(next)
	wg.Wait()
}
