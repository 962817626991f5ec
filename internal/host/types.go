package host

import (
	"github.com/gate-dev/gate/internal/grants"
	"github.com/gate-dev/gate/internal/resolve"
)

// The import resolvers (package internal/resolve) and the grants
// (package internal/grants), under the names the host functions use
// throughout.
type (
	Grants      = grants.Spec
	Resolvers   = resolve.Resolvers
	Policy      = grants.Policy
	SecretSet   = grants.SecretSet
	Destination = grants.Destination
	DialAddr    = grants.DialAddr
	HTTPTarget  = grants.HTTPTarget
)
