package manifest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestPolicyOverRuntime(t *testing.T) {
	five, zero, hour := 5*time.Second, time.Duration(0), time.Hour
	runtime := &Policy{FailureThreshold: 3, Retry: &five, HoldDown: &hour}
	tests := []struct {
		name        string
		over, under *Policy
		want        *Policy
	}{
		{"neither", nil, nil, nil},
		{"runtime only", nil, runtime, runtime},
		{"entry only", &Policy{SuccessThreshold: 2}, nil, &Policy{SuccessThreshold: 2}},
		{"key by key", &Policy{SuccessThreshold: 2, FailureThreshold: 1}, runtime, &Policy{FailureThreshold: 1, SuccessThreshold: 2, Retry: &five, HoldDown: &hour}},
		{"a zero duration written wins", &Policy{HoldDown: &zero}, runtime, &Policy{FailureThreshold: 3, Retry: &five, HoldDown: &zero}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.over.Over(tt.under))
		})
	}
	assert.Equal(t, &Policy{FailureThreshold: 3, Retry: &five, HoldDown: &hour}, runtime, "Over leaves its operands alone")
}
