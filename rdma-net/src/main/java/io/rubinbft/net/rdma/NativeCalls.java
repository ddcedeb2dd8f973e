package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Downcall plumbing for the control path: handles that capture errno, and calls that turn
 * rdma-core's failure conventions (-1 or NULL with errno) into {@link VerbsException}s naming the
 * call.
 */
final class NativeCalls {

  static final Linker LINKER = Linker.nativeLinker();
  static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO = CAPTURE.varHandle(PathElement.groupElement("errno"));
  private static final MethodHandle STRERROR =
      LINKER.downcallHandle(
          LINKER.defaultLookup().findOrThrow("strerror"), FunctionDescriptor.of(ADDRESS, JAVA_INT));

  private NativeCalls() {}

  /** A handle for {@code symbol} whose first parameter receives errno after the call. */
  static MethodHandle settingErrno(SymbolLookup library, String symbol, FunctionDescriptor d) {
    return LINKER.downcallHandle(
        library.findOrThrow(symbol), d, Linker.Option.captureCallState("errno"));
  }

  /** A plain handle for {@code symbol}. */
  static MethodHandle plain(SymbolLookup library, String symbol, FunctionDescriptor d) {
    return LINKER.downcallHandle(library.findOrThrow(symbol), d);
  }

  /** Calls an errno-setting function returning 0 on success, -1 and errno on failure. */
  static void callChecked(String what, MethodHandle handle, Object... args) throws VerbsException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment capture = arena.allocate(CAPTURE);
      int result = (int) invoke(handle, withCapture(capture, args));
      if (result != 0) {
        throw new VerbsException(what + " failed: " + describeErrno(errno(capture)));
      }
    }
  }

  /** Calls an errno-setting function returning a pointer, NULL and errno on failure. */
  static MemorySegment callForPointer(String what, MethodHandle handle, Object... args)
      throws VerbsException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment capture = arena.allocate(CAPTURE);
      MemorySegment result = (MemorySegment) invoke(handle, withCapture(capture, args));
      if (result.equals(MemorySegment.NULL)) {
        throw new VerbsException(what + " failed: " + describeErrno(errno(capture)));
      }
      return result;
    }
  }

  /** Calls a function that returns 0 on success or an errno value, as ibv_destroy_* do. */
  static void callReturningErrno(String what, MethodHandle handle, Object... args) {
    int result = (int) invoke(handle, args);
    if (result != 0) {
      throw new IllegalStateException(what + " failed: " + describeErrno(Math.abs(result)));
    }
  }

  /** Calls a handle whose failure modes need no errno. */
  static Object invoke(MethodHandle handle, Object... args) {
    try {
      return handle.invokeWithArguments(args);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("native call " + handle + " threw", t);
    }
  }

  /** E.g. "Cannot allocate memory (errno 12)". */
  static String describeErrno(int errno) {
    MemorySegment text = (MemorySegment) invoke(STRERROR, errno);
    return text.reinterpret(256).getString(0) + " (errno " + errno + ")";
  }

  /** Reads a NUL-terminated C string returned by a native function. */
  static String string(MemorySegment pointer) {
    return pointer.reinterpret(4096).getString(0);
  }

  static int errno(MemorySegment capture) {
    return (int) ERRNO.get(capture, 0L);
  }

  private static Object[] withCapture(MemorySegment capture, Object[] args) {
    Object[] all = Arrays.copyOf(new Object[] {capture}, args.length + 1);
    System.arraycopy(args, 0, all, 1, args.length);
    return all;
  }
}
