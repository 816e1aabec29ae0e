package invariant

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// oracle runs the interop CLI's fleet-check: the runtime's restore check
// (RestoreCheck.java) for every marker under every set of settings, and the
// data topic's log start offsets, on Kafka's Java client, in one JVM.
type oracle struct {
	jar, bootstrap, workdir string
}

type oracleCheck struct {
	Label    string            `json:"label"`
	Settings map[string]string `json:"settings"`
	TopicID  string            `json:"topicId"`
	Marker   map[string]int64  `json:"marker"`
}

type oracleJob struct {
	Operator     string        `json:"operator"`
	Topic        string        `json:"topic"`
	ControlTopic string        `json:"controlTopic"`
	Checks       []oracleCheck `json:"checks"`
}

type oracleResult struct {
	Jobs []struct {
		Operator string `json:"operator"`
		Control  struct {
			Plans []struct {
				ID     string `json:"id"`
				Status string `json:"status"`
			} `json:"plans"`
			Boundary map[string]int64 `json:"boundary"`
			Error    string           `json:"error"`
		} `json:"control"`
		LogStart      map[string]int64 `json:"logStart"`
		LogStartError string           `json:"logStartError"`
		Checks        []struct {
			Label      string `json:"label"`
			Restore    string `json:"restore"`
			Message    string `json:"message"`
			Replayable *bool  `json:"replayable"`
		} `json:"checks"`
	} `json:"jobs"`
}

// run writes the input next to the night's other files (kept for a replay
// by hand) and runs the oracle.
func (o oracle) run(ctx context.Context, night int, jobs []oracleJob) (oracleResult, error) {
	var res oracleResult
	in, err := json.MarshalIndent(map[string]any{"jobs": jobs}, "", " ")
	if err != nil {
		return res, err
	}
	file := filepath.Join(o.workdir, fmt.Sprintf("fleet-check-%02d.json", night))
	if err := os.WriteFile(file, in, 0o644); err != nil {
		return res, err
	}
	cmd := exec.CommandContext(ctx, "java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", o.jar,
		"fleet-check", "--bootstrap", o.bootstrap, "--input", file, "--timeout-ms", "30000")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return res, fmt.Errorf("java fleet-check (input %s): %v: %s", file, err, stderr.String())
	}
	if err := os.WriteFile(file+".out", stdout.Bytes(), 0o644); err != nil {
		return res, err
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return res, fmt.Errorf("java fleet-check answered something that is not its JSON: %v", err)
	}
	if len(res.Jobs) != len(jobs) {
		return res, fmt.Errorf("java fleet-check answered for %d jobs of %d", len(res.Jobs), len(jobs))
	}
	return res, nil
}

func markerJSON(m map[int32]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for p, o := range m {
		out[strconv.Itoa(int(p))] = o
	}
	return out
}

func markerFromJSON(m map[string]int64) map[int32]int64 {
	out := make(map[int32]int64, len(m))
	for p, o := range m {
		n, _ := strconv.Atoi(p)
		out[int32(n)] = o
	}
	return out
}
