package io.rubinbft.net.disni;

import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.SVCPostSend;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.WorkRequestList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/**
 * A queue pair's send work requests. DiSNI posts a fixed list per stateful call and lets each
 * entry's id, flags and buffer change in place, so a post of {@code n} requests reuses the call
 * built for {@code n} (built on its first use; at most {@link #MAX_BATCH} of them, one doorbell per
 * post).
 */
final class DisniSendRequests extends WorkRequestList<DisniRegisteredMemory> {

  /** The largest batch one post carries (the calls for 1..16 hold 136 native requests). */
  static final int MAX_BATCH = 16;

  private final IbvQP queuePair;
  private final SVCPostSend[] calls;

  DisniSendRequests(IbvQP queuePair, int depth, int maxInlineBytes) {
    super(Math.min(depth, MAX_BATCH), maxInlineBytes);
    this.queuePair = queuePair;
    this.calls = new SVCPostSend[capacity()];
  }

  @Override
  protected DisniRegisteredMemory registered(RegisteredMemory memory) {
    return DisniRegisteredMemory.of(memory);
  }

  /** Posts the first {@code count} requests as one chained batch. */
  void post(int count) throws VerbsException {
    try {
      SVCPostSend call = call(count);
      for (int i = 0; i < count; i++) {
        SVCPostSend.SendWRMod request = call.getWrMod(i);
        request.setWr_id(workRequestId(i));
        request.setSend_flags(
            (signaled(i) ? IbvSendWR.IBV_SEND_SIGNALED : 0)
                | (inline(i) ? IbvSendWR.IBV_SEND_INLINE : 0));
        SVCPostSend.SgeMod sge = request.getSgeMod(0);
        sge.setAddr(memory(i).address(offset(i)));
        sge.setLength(length(i));
        sge.setLkey(memory(i).localKey());
      }
      call.execute();
    } catch (IOException e) {
      throw new VerbsException("ibv_post_send of " + count + " through DiSNI failed", e);
    }
  }

  private SVCPostSend call(int count) throws IOException {
    if (calls[count - 1] == null) {
      List<IbvSendWR> requests = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        IbvSendWR request = new IbvSendWR();
        request.setOpcode(IbvSendWR.IBV_WR_SEND);
        @SuppressWarnings("JdkObsolete") // DiSNI's setSg_list takes a LinkedList
        LinkedList<IbvSge> sges = new LinkedList<>();
        sges.add(new IbvSge());
        request.setSg_list(sges);
        request.setNum_sge(1);
        requests.add(request);
      }
      calls[count - 1] = queuePair.postSend(requests, null);
    }
    return calls[count - 1];
  }

  void free() {
    for (SVCPostSend call : calls) {
      if (call != null) {
        call.free();
      }
    }
  }
}
