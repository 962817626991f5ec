package uplink

import "encoding/json"

// newTestGuard is a session's guard that counts no notification in its
// flow (none of those the tests send is one gate acts on).
func newTestGuard(maxPending int) *Guard {
	return NewGuard(maxPending, func(string, json.RawMessage) bool { return false })
}
