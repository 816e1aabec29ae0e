package soak

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
)

// sabotage does, on the last night, what the invariants exist to catch,
// so that a run with -sabotage shows the checker has teeth: it must end
// with violations of (a), (b), (c) and (f), and RELIABILITY.md records
// that it does. Each act goes around the provider:
//   - records at and above the oldest retained marker of one job are
//     deleted (DeleteRecords one past it): (a) and (b);
//   - a tombstone is appended to another job's (or the same) control topic, erasing its
//     newest plan for a compacting reader: (c), and (a) since the runtime's
//     reader refuses the history;
//   - the SASL password is written into a log: (f).
func (s *Soak) sabotage(ctx context.Context) error {
	var victims []*job
	for _, j := range s.jobs {
		if j.running && j.oldest() != nil && j.expectation() != nil {
			victims = append(victims, j)
		}
	}
	if len(victims) == 0 {
		return fmt.Errorf("sabotage needs a running job with readable points")
	}
	data, ctl := victims[0], victims[len(victims)-1]
	plan := data.oldest().plan()
	cut := kadm.Offsets{}
	var what string
	for p, off := range plan {
		if off < data.end[p] {
			cut.Add(kadm.Offset{Topic: data.topic, Partition: p, At: off + 1})
			what = fmt.Sprintf("partition %d below offset %d", p, off+1)
			break
		}
	}
	if len(cut) == 0 {
		return fmt.Errorf("sabotage: %s has no record at or above its oldest marker", data.key)
	}
	resp, err := s.kc.adm.DeleteRecords(ctx, cut)
	if err != nil {
		return err
	}
	if err := resp.Error(); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "    SABOTAGE: deleted %s %s (one past its oldest retained marker)\n", data.topic, what)
	recs, _, _, err := s.controlRecords(ctx, ctl.control)
	if err != nil {
		return err
	}
	var key string
	for _, r := range recs {
		if !r.Attrs.IsControl() {
			key = string(r.Key)
		}
	}
	out, err := exec.CommandContext(ctx, "java", "-jar", s.cfg.Jar, "write-raw", "--bootstrap", strings.Join(s.cfg.Bootstrap, ","),
		"--topic", ctl.control, "--key", key, "--tombstone").CombinedOutput()
	if err != nil {
		return fmt.Errorf("sabotage: write-raw: %v: %s", err, out)
	}
	fmt.Fprintf(s.out, "    SABOTAGE: tombstone for plan %s in %s\n", key, ctl.control)
	leak := filepath.Join(s.cfg.Dir, "logs", "sabotage.log")
	if err := os.WriteFile(leak, []byte("connecting with password="+s.cfg.Secrets[0]+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "    SABOTAGE: the SASL password written to %s\n", leak)
	return nil
}
