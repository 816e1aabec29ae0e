package org.flinkagents.interop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code --name value} / {@code --name=value} options and bare flags; anything unknown is a usage error. */
final class Options {
    private static final Pattern PARTITION_OFFSET = Pattern.compile("(-?[0-9]+)=(-?[0-9]+)");

    private final Map<String, String> values = new HashMap<>();
    private final Set<String> flags = new HashSet<>();
    private final List<String> positional = new ArrayList<>();

    static Options parse(List<String> args, Set<String> valueOptions, Set<String> flagOptions) throws UsageException {
        Options options = new Options();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                options.positional.add(arg);
                continue;
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg : arg.substring(0, eq);
            if (flagOptions.contains(name) && eq < 0) {
                if (!options.flags.add(name)) {
                    throw new UsageException(name + " given twice");
                }
            } else if (valueOptions.contains(name)) {
                String value;
                if (eq >= 0) {
                    value = arg.substring(eq + 1);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new UsageException(name + " needs a value");
                }
                if (options.values.putIfAbsent(name, value) != null) {
                    throw new UsageException(name + " given twice");
                }
            } else {
                throw new UsageException("unknown option " + arg);
            }
        }
        return options;
    }

    String required(String name) throws UsageException {
        String value = values.get(name);
        if (value == null) {
            throw new UsageException(name + " is required");
        }
        return value;
    }

    Optional<String> optional(String name) {
        return Optional.ofNullable(values.get(name));
    }

    boolean flag(String name) {
        return flags.contains(name);
    }

    List<String> positional() {
        return List.copyOf(positional);
    }

    /**
     * Parses {@code p=o} pairs. Only syntax is checked (integers, no repeated partition): the
     * plan rules belong to {@link Plan#of}, and {@code plan-id} must accept invalid plans.
     */
    static SortedMap<Integer, Long> partitionOffsets(List<String> pairs) throws UsageException {
        SortedMap<Integer, Long> offsets = new TreeMap<>();
        for (String pair : pairs) {
            Matcher m = PARTITION_OFFSET.matcher(pair);
            if (!m.matches()) {
                throw new UsageException("expected PARTITION=OFFSET, got \"" + pair + "\"");
            }
            int partition;
            long offset;
            try {
                partition = Integer.parseInt(m.group(1));
                offset = Long.parseLong(m.group(2));
            } catch (NumberFormatException e) {
                throw new UsageException("partition or offset out of range in \"" + pair + "\"");
            }
            if (offsets.put(partition, offset) != null) {
                throw new UsageException("partition " + partition + " given twice");
            }
        }
        return offsets;
    }
}
