package io.github.actionstate.fixturegen;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Settings that keep every MiniCluster on 127.0.0.1, without web UI, with its temp files in one place. */
final class Loopback {

    private Loopback() {}

    static Map<String, String> settings(Path tmpDir) {
        Map<String, String> s = new HashMap<>();
        s.put("rest.address", "127.0.0.1");
        s.put("rest.bind-address", "127.0.0.1");
        s.put("rest.bind-port", "0");
        s.put("jobmanager.rpc.address", "127.0.0.1");
        s.put("jobmanager.bind-host", "127.0.0.1");
        s.put("taskmanager.host", "127.0.0.1");
        s.put("taskmanager.bind-host", "127.0.0.1");
        s.put("io.tmp.dirs", tmpDir.toAbsolutePath().toString());
        return s;
    }
}
