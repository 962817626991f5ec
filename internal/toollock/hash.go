package toollock

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SumsOf returns the sums of t's parts: each part as canonical JSON (read
// and written again with its keys sorted and without space, so that the
// order of keys and the white space an upstream writes do not count;
// numbers are kept as written), hashed with SHA-256. A title or
// description that is empty, and an output schema, annotations, _meta,
// icons or other fields that are absent, have no sum.
func SumsOf(t *mcp.Tool) (Sums, error) {
	var s Sums
	var err error
	part := func(p Part, present bool, v any) {
		if !present || err != nil {
			return
		}
		s[p], err = sum(v)
		if err != nil {
			err = fmt.Errorf("its %s: %w", p, err)
		}
	}
	part(Title, t.Title != "", t.Title)
	part(Description, t.Description != "", t.Description)
	part(Input, t.InputSchema != nil, t.InputSchema)
	part(Output, t.OutputSchema != nil, t.OutputSchema)
	part(Annotations, t.Annotations != nil, t.Annotations)
	part(Meta, len(t.Meta) > 0, t.Meta)
	part(Icons, len(t.Icons) > 0, t.Icons)
	if err == nil {
		var other map[string]any
		if other, err = otherFields(t); err == nil {
			part(Other, len(other) > 0, other)
		}
	}
	return s, err
}

// named are the JSON keys of the tool that have parts of their own, or
// (name) are the lock's key.
var named = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta", "icons"}

// otherFields is t as JSON without the fields that have parts of their
// own: whatever else the SDK knows of a tool, and so offers a client.
func otherFields(t *mcp.Tool) (map[string]any, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("its JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var all map[string]any
	if err := dec.Decode(&all); err != nil {
		return nil, fmt.Errorf("its JSON: %w", err)
	}
	for _, k := range named {
		delete(all, k)
	}
	return all, nil
}

// sum hashes v's canonical JSON.
func sum(v any) (string, error) {
	c, err := Canonical(v)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(c)
	return hex.EncodeToString(h[:]), nil
}

// Canonical returns v as JSON with every object's keys sorted and no
// white space: v is written, read back into plain values (numbers as
// written), and written again.
func Canonical(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var plain any
	if err := dec.Decode(&plain); err != nil {
		return nil, err
	}
	return json.Marshal(plain)
}
