package org.flinkagents.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path dir;

    record Result(int status, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(status, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void planIdMatchesSpecVectorInAnyArgumentOrder() {
        Result r = run("plan-id", PlanJsonTest.SPEC_SOURCE, PlanJsonTest.SPEC_TOPIC, PlanJsonTest.SPEC_TOPIC_ID,
                "2=0", "1=100", "0=150");
        assertEquals(0, r.status(), r.stderr());
        assertEquals(PlanJsonTest.SPEC_PLAN_ID + System.lineSeparator(), r.out());
    }

    @Test
    void writePlanThenReprintIsByteIdenticalAndNeverOverwrites() throws Exception {
        Path file = dir.resolve("plan.json");
        Result written = run("write-plan", "--source", PlanJsonTest.SPEC_SOURCE, "--topic", PlanJsonTest.SPEC_TOPIC,
                "--topic-id", PlanJsonTest.SPEC_TOPIC_ID, "--offsets", "2=0,0=150,1=100", "--out", file.toString());
        assertEquals(0, written.status(), written.stderr());
        assertEquals(PlanJsonTest.SPEC_PLAN_ID + System.lineSeparator(), written.out());
        byte[] bytes = Files.readAllBytes(file);

        Result reprinted = run("reprint-plan", file.toString());
        assertEquals(0, reprinted.status(), reprinted.stderr());
        assertArrayEquals(bytes, reprinted.stdout());

        Result again = run("write-plan", "--source", "other", "--topic", "t", "--topic-id", PlanJsonTest.SPEC_TOPIC_ID,
                "--offsets", "0=1", "--out", file.toString());
        assertEquals(1, again.status());
        assertTrue(again.stderr().contains("overwrite"), again.stderr());
        assertArrayEquals(bytes, Files.readAllBytes(file));
    }

    @Test
    void reprintRecordIsCompactWithoutNewline() throws Exception {
        String value = PlanJson.controlRecordValue(new ControlRecord(Status.APPLIED, PlanJsonTest.specPlan()));
        Path file = dir.resolve("record.json");
        Files.writeString(file, value.replace(",", " ,\n ") + "\n", StandardCharsets.UTF_8);
        Result r = run("reprint-record", file.toString());
        assertEquals(0, r.status(), r.stderr());
        assertEquals(value, r.out());
    }

    @Test
    void invalidPlanFileExitsOne() throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, PlanJsonTest.specFileWithOffsets("{\"0\":150,\"01\":100,\"2\":0}"));
        Result r = run("reprint-plan", file.toString());
        assertEquals(1, r.status());
        assertEquals(0, r.stdout().length);
        assertTrue(r.stderr().startsWith("error: "), r.stderr());
    }

    @Test
    void writePlanValidatesThePlan() {
        Result r = run("write-plan", "--source", "s", "--topic", "t", "--topic-id", Plan.ZERO_TOPIC_ID,
                "--offsets", "0=1", "--out", dir.resolve("p.json").toString());
        assertEquals(1, r.status());
        assertTrue(r.stderr().contains("zero UUID"), r.stderr());
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, run().status());
        assertEquals(2, run("no-such-command").status());
        assertEquals(2, run("reprint-plan").status());
        assertEquals(2, run("plan-id", "s", "t").status());
        assertEquals(2, run("plan-id", "s", "t", "id", "0=1", "0=2").status());
        assertEquals(2, run("plan-id", "s", "t", "id", "0:1").status());
        assertEquals(2, run("write-plan", "--source", "s").status());
        assertEquals(2, run("write-plan", "--bogus", "x").status());
        assertEquals(2, run("write-raw", "--bootstrap", "b", "--topic", "t", "--key", "k").status());
        assertEquals(2, run("write-committed", "--bootstrap", "b", "--topic", "t", "--plan", "p",
                "--status", "DONE").status());
        assertEquals(2, run("read-control", "--topic", "t").status());
    }
}
