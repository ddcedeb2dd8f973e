package io.rubinbft.net.shm;

/**
 * Who owns a file in the device directory: the device's random key, and the process it lives in
 * (pid and start time, so that a reused pid is not mistaken for the old process).
 */
record Owner(long deviceKey, long pid, long startMillis) {

  /** The owner for a new device in this process. */
  static Owner inThisProcess(long deviceKey) {
    ProcessHandle self = ProcessHandle.current();
    long start = self.info().startInstant().map(instant -> instant.toEpochMilli()).orElse(0L);
    return new Owner(deviceKey, self.pid(), start);
  }

  boolean sameProcessAs(Owner other) {
    return pid == other.pid && startMillis == other.startMillis;
  }

  /** The device key as the fixed-width hex used in file names. */
  String keyText() {
    return keyText(deviceKey);
  }

  static String keyText(long deviceKey) {
    return String.format("%016x", deviceKey);
  }
}
