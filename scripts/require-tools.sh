#!/usr/bin/env bash
# Fails loudly, naming what is missing, when a tool the suite needs is absent.
set -euo pipefail
missing=()
for tool in "$@"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
  echo "ERROR: required tools not found on PATH: ${missing[*]}" >&2
  echo "  go        https://go.dev/dl (1.26+)" >&2
  echo "  terraform https://developer.hashicorp.com/terraform/install (1.5+; tests drive the real CLI)" >&2
  echo "  java, mvn JDK 17+ and Maven (Java interop checks, Kafka and Flink from Maven Central)" >&2
  echo "  node, npm Node.js (Azurite, the Azure Storage emulator, from the npm registry)" >&2
  echo "  openssl   certificates for the TLS listeners of the real-Kafka suite" >&2
  exit 1
fi
