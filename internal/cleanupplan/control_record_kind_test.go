package cleanupplan

import "testing"

func TestIsControlRecord(t *testing.T) {
	p, err := New("s3://ckpt/chk-3", "orders", "AAAAAAAAAAAAAAAAAAAAAQ", Offsets{0: 5})
	if err != nil {
		t.Fatal(err)
	}
	k, v := EncodeRecord(StatusCommitted, p)
	for _, tc := range []struct {
		name       string
		key, value []byte
		want       bool
	}{
		{"a committed record", k, v, true},
		{"a tombstone keyed by a plan ID", k, nil, true},
		{"a record with trailing content", k, append(append([]byte{}, v...), " x"...), true},
		{"a newer schema", []byte("k"), []byte(`{"schemaVersion":2,"status":"RETIRED","plan":{}}`), true},
		{"a tombstone with a foreign key", []byte("invoice-1"), nil, false},
		{"garbage", []byte("k"), []byte{0xff, 0x00, 0x13}, false},
		{"other JSON", []byte("k"), []byte(`{"amount":3,"status":"paid"}`), false},
		{"action state", []byte("k"), []byte("state"), false},
	} {
		if got := IsControlRecord(tc.key, tc.value); got != tc.want {
			t.Errorf("%s: IsControlRecord = %v, want %v", tc.name, got, tc.want)
		}
	}
}
