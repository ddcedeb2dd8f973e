package io.rubinbft.net.rdma;

import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * The C library's calls the binding needs to sleep in the kernel (fcntl, poll, eventfd, read,
 * write, close), with the Linux x86-64 constants and {@code struct pollfd} (checked with offsetof,
 * as {@link VerbsLayouts}). Handles that may fail take an errno capture segment ({@link
 * NativeCalls#CAPTURE}) as their first argument.
 */
final class Libc {

  static final int EAGAIN = 11;
  static final int EINTR = 4;
  static final int F_GETFL = 3;
  static final int F_SETFL = 4;
  static final int O_NONBLOCK = 0x800;
  static final int EFD_NONBLOCK = 0x800;
  static final int EFD_CLOEXEC = 0x80000;
  static final short POLLIN = 1;

  /** struct pollfd: size 8; fd 0, events 4, revents 6. */
  static final StructLayout POLLFD =
      structLayout(
          JAVA_INT.withName("fd"), JAVA_SHORT.withName("events"), JAVA_SHORT.withName("revents"));

  /** int fcntl(int fd, int cmd, ...) with one int argument. */
  private static final MethodHandle FCNTL =
      withErrno(
          "fcntl",
          FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
          Linker.Option.firstVariadicArg(2));

  /** int poll(struct pollfd *fds, nfds_t nfds, int timeout): it blocks, so no critical call. */
  static final MethodHandle POLL =
      withErrno("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

  /** int eventfd(unsigned int initval, int flags). */
  static final MethodHandle EVENTFD =
      withErrno("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));

  /** ssize_t read(int fd, void *buf, size_t count). */
  static final MethodHandle READ =
      withErrno("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));

  /** ssize_t write(int fd, const void *buf, size_t count); errno unread (see its caller). */
  static final MethodHandle WRITE =
      NativeCalls.LINKER.downcallHandle(
          NativeCalls.LINKER.defaultLookup().findOrThrow("write"),
          FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));

  /** int close(int fd). */
  private static final MethodHandle CLOSE =
      withErrno("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

  private Libc() {}

  private static MethodHandle withErrno(
      String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
    Linker.Option[] all = Arrays.copyOf(options, options.length + 1);
    all[options.length] = Linker.Option.captureCallState("errno");
    return NativeCalls.LINKER.downcallHandle(
        NativeCalls.LINKER.defaultLookup().findOrThrow(symbol), descriptor, all);
  }

  /** Sets O_NONBLOCK on {@code fd}, which is {@code what} (for the message). */
  static void setNonBlocking(int fd, String what) throws VerbsException {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment capture = call.allocate(NativeCalls.CAPTURE);
      int flags = (int) NativeCalls.invoke(FCNTL, capture, fd, F_GETFL, 0);
      if (flags == -1
          || (int) NativeCalls.invoke(FCNTL, capture, fd, F_SETFL, flags | O_NONBLOCK) == -1) {
        throw new VerbsException(
            "fcntl on "
                + what
                + " failed: "
                + NativeCalls.describeErrno(NativeCalls.errno(capture)));
      }
    }
  }

  /** Closes {@code fd}, which the caller owns and never uses again. */
  static void close(int fd, String what) {
    try (Arena call = Arena.ofConfined()) {
      MemorySegment capture = call.allocate(NativeCalls.CAPTURE);
      if ((int) NativeCalls.invoke(CLOSE, capture, fd) != 0) {
        throw new IllegalStateException(
            "closing "
                + what
                + " failed: "
                + NativeCalls.describeErrno(NativeCalls.errno(capture)));
      }
    }
  }
}
