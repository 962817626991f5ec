package manifest

import (
	"strings"
	"unsafe"
)

// On the fast path the decoded strings are substrings of one copy of the
// source (see fastDecoder.str). A Manifest must not keep that copy alive
// for a few names, so detach gives every string of a Manifest that lies
// in it a home of its own: one allocation for all of them (per batch of
// tools), exactly their size. A Tool's strings may then keep its
// neighbours' alive, which costs nothing while the Manifest is kept, and
// a few kilobytes at most if a caller keeps one Tool alone.

// within reports whether s lies in whole's bytes.
func within(s, whole string) bool {
	if len(s) == 0 || len(whole) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	base := uintptr(unsafe.Pointer(unsafe.StringData(whole)))
	return p >= base && p < base+uintptr(len(whole))
}

// detachStrings copies every *p that lies in whole into one new
// allocation, and sets "" for an empty one (which may still point into
// whole).
func detachStrings(whole string, ptrs []*string) {
	total := 0
	for _, p := range ptrs {
		if within(*p, whole) {
			total += len(*p)
		}
	}
	var b strings.Builder
	b.Grow(total)
	for _, p := range ptrs {
		if within(*p, whole) {
			b.WriteString(*p)
		}
	}
	all := b.String()
	for _, p := range ptrs {
		switch {
		case *p == "":
			*p = ""
		case within(*p, whole):
			n := len(*p)
			*p, all = all[:n], all[n:]
		}
	}
}

// appendString appends p to ptrs unless *p is empty (and so, unless it
// points into whole, nothing to detach).
func appendString(ptrs []*string, p *string) []*string {
	if *p == "" {
		*p = ""
		return ptrs
	}
	return append(ptrs, p)
}

// probeStrings appends the strings of p. (A Position's File is the
// caller's, never in the source.)
func probeStrings(ptrs []*string, p *Probe) []*string {
	if p == nil {
		return ptrs
	}
	ptrs = appendString(appendString(appendString(ptrs, &p.Standard), &p.Module), &p.SHA256)
	ptrs = appendList(ptrs, p.Env, p.Dial, p.Import)
	if n := p.Net; n != nil {
		ptrs = appendString(ptrs, &n.TLSCA)
		ptrs = appendList(ptrs, n.HTTP, n.Insecure)
		// The secrets' names are map keys, which the decoder interns as
		// copies of their own; their destinations are in the source.
		for _, dests := range n.Secrets {
			ptrs = appendList(ptrs, dests)
		}
	}
	return ptrs
}

// appendList appends the strings of lists.
func appendList(ptrs []*string, lists ...[]string) []*string {
	for _, list := range lists {
		for i := range list {
			ptrs = appendString(ptrs, &list[i])
		}
	}
	return ptrs
}

// detachConfig gives p's config strings homes of their own (a map's keys
// and values cannot be pointed at; config is rare enough to copy one by
// one).
func detachConfig(whole string, p *Probe) {
	if p == nil || p.Config == nil {
		return
	}
	cfg := make(map[string]string, len(p.Config))
	for k, v := range p.Config {
		if within(k, whole) {
			k = strings.Clone(k)
		}
		if within(v, whole) {
			v = strings.Clone(v)
		}
		cfg[k] = v
	}
	p.Config = cfg
}

// detachTools detaches the strings of tools from whole.
func detachTools(whole string, tools []Tool) {
	if whole == "" {
		return
	}
	ptrs := make([]*string, 0, 4*len(tools))
	for i := range tools {
		t := &tools[i]
		ptrs = appendString(appendString(appendString(ptrs, &t.Name), &t.Description), &t.Toolset)
		ptrs = probeStrings(ptrs, t.Probe)
		detachConfig(whole, t.Probe)
	}
	detachStrings(whole, ptrs)
}

// detachRest detaches the strings of m outside its tools from whole.
func detachRest(whole string, m *Manifest) {
	if whole == "" {
		return
	}
	ptrs := appendString(appendString(nil, &m.Runtime.Python), &m.Skills.Enforcement)
	if m.Runtime.CacheDir != nil {
		ptrs = append(ptrs, m.Runtime.CacheDir)
	}
	for i := range m.Skills.Paths {
		ptrs = append(ptrs, &m.Skills.Paths[i])
	}
	for i := range m.Servers {
		s := &m.Servers[i]
		ptrs = appendString(appendString(ptrs, &s.Name), &s.Description)
		ptrs = probeStrings(ptrs, s.Probe)
		detachConfig(whole, s.Probe)
		ptrs = upstreamStrings(whole, ptrs, s.Upstream)
	}
	detachStrings(whole, ptrs)
}

// upstreamStrings appends the strings of u, detaching its rules' probe
// configs.
func upstreamStrings(whole string, ptrs []*string, u *Upstream) []*string {
	if u == nil {
		return ptrs
	}
	for i := range u.Command {
		ptrs = appendString(ptrs, &u.Command[i])
	}
	for i := range u.Env {
		ptrs = appendString(appendString(ptrs, &u.Env[i].Name), &u.Env[i].Value)
	}
	for i := range u.PassEnv {
		ptrs = appendString(ptrs, &u.PassEnv[i])
	}
	ptrs = appendString(appendString(ptrs, &u.URL), &u.Transport)
	for i := range u.Headers {
		ptrs = appendString(appendString(ptrs, &u.Headers[i].Name), &u.Headers[i].Value)
	}
	if o := u.OAuth; o != nil {
		ptrs = appendString(appendString(appendString(ptrs, &o.TokenURL), &o.ClientID), &o.ClientSecret)
		for i := range o.Scopes {
			ptrs = appendString(ptrs, &o.Scopes[i])
		}
	}
	if u.Prefix != nil {
		ptrs = appendString(ptrs, u.Prefix)
	}
	for i := range u.Tools {
		r := &u.Tools[i]
		ptrs = appendString(appendString(ptrs, &r.Name), &r.Match)
		ptrs = probeStrings(ptrs, r.Probe)
		detachConfig(whole, r.Probe)
	}
	return ptrs
}
