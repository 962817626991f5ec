package skills

import "context"

// RefreshReport says what a Refresh changed, by skill name.
type RefreshReport struct {
	// Added are skills that appeared (a new file, or a name now kept).
	Added []string `json:"added"`
	// Changed are skills whose file changed, or that now come from another
	// file.
	Changed []string `json:"changed"`
	// Removed are skills that are gone.
	Removed []string `json:"removed"`
}

// Empty reports whether nothing changed.
func (r RefreshReport) Empty() bool {
	return len(r.Added) == 0 && len(r.Changed) == 0 && len(r.Removed) == 0
}

// Refresh walks the catalog's discovery paths again and re-reads only what
// changed: a file whose size and modification time are unchanged is not
// read; one whose size or time changed is read and hashed (FNV-64a of the
// bytes parsed), and re-parsed only if the hash changed too. New files are
// parsed; vanished ones dropped. The results of the skills that changed,
// appeared or vanished are dropped; the others keep theirs.
//
// A catalog with no discovery paths (one built of skills parsed on their
// own) is left as it is. The walk and the reading happen without holding the Manager's
// lock, so readers (Prompt, Catalog, Offered, ...) never wait for them;
// concurrent Refresh calls run one after the other.
func (m *Manager) Refresh() RefreshReport {
	rep, _ := m.RefreshContext(context.Background())
	return rep
}

// RefreshContext is Refresh that gives up when ctx ends, while waiting for
// another Refresh or during its own walk (ctx is looked at before each
// directory and each file): it then returns ctx's error and leaves the
// catalog as it was, so that a shutdown need not wait for a walk.
func (m *Manager) RefreshContext(ctx context.Context) (RefreshReport, error) {
	select {
	case m.refresh <- struct{}{}:
	case <-ctx.Done():
		return RefreshReport{}, ctx.Err()
	}
	defer func() { <-m.refresh }()

	old := m.Catalog()
	if len(old.Roots) == 0 {
		return RefreshReport{}, nil
	}
	cat, err := discover(ctx, old.Roots, old.opts, old.files)
	if err != nil {
		return RefreshReport{}, err
	}

	var rep RefreshReport
	for _, s := range cat.Skills {
		prev, ok := old.byName[s.Name]
		switch {
		case !ok:
			rep.Added = append(rep.Added, s.Name)
		case prev != s:
			rep.Changed = append(rep.Changed, s.Name)
		}
	}
	for _, s := range old.Skills {
		if _, ok := cat.byName[s.Name]; !ok {
			rep.Removed = append(rep.Removed, s.Name)
		}
	}

	// Binaries new skills name are looked up now, before the lock that
	// validation holds (see binCache).
	m.mu.RLock()
	bins := m.bins
	m.mu.RUnlock()
	bins.prefetch(cat.Skills)

	m.mu.Lock()
	defer m.mu.Unlock()
	if rep.Empty() {
		// The skills are the same values (unchanged files reuse their
		// parse), so entries and results stand; take the new file states
		// and reports.
		m.cat = cat
		return rep, nil
	}
	m.install(cat, m.byName)
	return rep, nil
}
