package mcpgw

import (
	"bytes"
	"slices"
	"strings"
)

// sortListing orders one upstream's listing by key, and the entries it
// lists twice under one key by their definition as listed. Gate takes the
// first entry of a key and hides the others, and sorts what it offers:
// so the lists it answers are the same bytes for the same listings,
// whatever order an upstream answered in. A listing past the gateway's
// caps keeps the entries that came first (the rest were never read), in
// whichever order they came.
func sortListing[L any](l []L, key func(L) string, def func(L) []byte) {
	slices.SortStableFunc(l, func(a, b L) int {
		if c := strings.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return bytes.Compare(def(a), def(b))
	})
}

func (lt listedTool) sortKey() string    { return lt.name }
func (lt listedTool) sortDef() []byte    { return lt.listed[:] }
func (r listedResource) sortKey() string { return r.uri }
func (r listedResource) sortDef() []byte { return r.def }
func (p listedPrompt) sortKey() string   { return p.name }
func (p listedPrompt) sortDef() []byte   { return p.def }
