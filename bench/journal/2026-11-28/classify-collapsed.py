"""Classifies async-profiler collapsed stacks of orderer nodes (journal entry 2026-11-28-08).

Usage: python3 classify-collapsed.py node-*.collapsed
Each sample goes to one class by the thread it ran on (start-up, JIT, GC, Broadcast handler,
replica thread, gRPC event loops, ...), then to a sub-class by the frames under it. Shares are
of all samples except start-up and join.
"""
import collections, sys
files=sys.argv[1:]
def inner(fr, rules, default):
    for f in reversed(fr):
        for name, subs in rules:
            if any((s[1:] in f and 'shaded/io/netty' not in f) if s.startswith('!') else (s in f) for s in subs): return name
    return default
NET_RULES=[
 ('TLS native (BoringSSL records)',['SSL_','bssl::','aes_','gcm_','aesni','chacha']),
 ('HPACK',['Hpack']),
 ('HTTP/2 frames and streams',['codec/http2','Http2']),
 ('gRPC transport (NettyServerHandler, headers, stream listener)',['!io/grpc/','GrpcHttp2','NettyServer','shaded/io/grpc/netty']),
 ('TLS Java side (SslHandler, engine wrappers)',['handler/ssl']),
 ('netty buffers, pipeline, event loop, socket I/O',['shaded/io/netty','sun/nio','SelectorImpl','epoll','writev','_[k]']),
]
def classify(st):
    fr=st.split(';')
    s=st
    if fr[0].startswith('io/rubinbft/orderer/cli/Main.main') or 'ChannelLifecycle' in s or 'org/eclipse/jetty' in s or fr[0].startswith('java/lang/ClassLoader.loadClass') or 'LauncherHelper' in s or 'ParticipationHandler' in s:
        return ('start-up and join','')
    if 'CompileBroker' in s: return ('JIT compiler threads','')
    if 'VMThread' in s or 'GCTaskThread' in s or 'GarbageCollectorExtImpl' in s: return ('GC and VM operations','')
    if 'DeliverSession' in s or 'DeliverService' in s: return ('Deliver','')
    if 'ReplicaHost.run' in s:
        if 'orderedAlready' in s: return ('replica thread','backups: tx-id lookup in the ledger (RocksDB iterator)')
        if 'ProposedBlockVerifier' in s or 'FabricProposals.invalidReason' in s: return ('replica thread','backups: other proposal checks')
        if 'ConsenterVoteCrypto.verify' in s or 'verifyProposalSignature' in s or 'SignatureReason' in s or 'signatureReason' in s or 'signFrom' in s: return ('replica thread','consensus signature checks (prepare/commit/checkpoint)')
        if 'sign' in s and ('EcdsaSigner' in s or 'Context.sign' in s): return ('replica thread','consensus signing')
        if 'ConsensusLog' in s or 'Hosted.append' in s: return ('replica thread','consensus WAL')
        if 'ReplicaInputs.poll' in s: return ('replica thread','waiting for input (park/unpark)')
        return ('replica thread','bft-core and host (rest)')
    if 'LedgerWriter' in s: return ('ledger writer','')
    if 'ClusterNetwork' in s: return ('cluster network','')
    if 'FastThreadLocalRunnable' in s:
        return ('gRPC event loops', inner(fr, NET_RULES, 'other'))
    if 'SerializingExecutor.run' in s:
        if 'EcdsaVerifier.verify' in s: return ('Broadcast handler (virtual threads)','creator signature check (ECDSA P-256 verify)')
        if 'BroadcastValidator' in s: return ('Broadcast handler (virtual threads)','other validation (parse, policy, MSP)')
        if 'OrderedTransactions.find' in s: return ('Broadcast handler (virtual threads)','tx-id lookup in the ledger (RocksDB iterator)')
        if 'ChannelRuntime.submit' in s or 'ChannelRuntime.offer' in s: return ('Broadcast handler (virtual threads)','hand-off to the pool (incl. wait for replica)')
        if 'BroadcastMetrics' in s: return ('Broadcast handler (virtual threads)','metrics')
        if 'sendMessage' in s or 'sendHeaders' in s or 'ServerCallImpl.close' in s or 'ClosableCall.close' in s: return ('Broadcast handler (virtual threads)','sending the answer')
        if 'EnvelopeRequests.parse' in s: return ('Broadcast handler (virtual threads)','request parse')
        if 'HandleServerCall' in s or 'MethodLookup' in s: return ('Broadcast handler (virtual threads)','call start (interceptors, certificates, method lookup)')
        if 'closed' in s: return ('Broadcast handler (virtual threads)','call closed')
        return ('Broadcast handler (virtual threads)','other')
    if 'ForkJoinWorkerThread' in s or 'VirtualThread' in s or 'Continuation' in s: return ('virtual-thread scheduling (mount, park, idle carriers)','')
    return ('other',fr[0].split('/')[-1][:50])
tot=0; top=collections.Counter(); sub=collections.Counter()
for fn in files:
    for line in open(fn):
        st,n=line.rsplit(' ',1); n=int(n); tot+=n
        a,b=classify(st); top[a]+=n; sub[(a,b)]+=n
su=top['start-up and join']+top['JIT compiler threads']
print('total samples',tot,'excl start-up',tot-top['start-up and join'])
base=tot-top['start-up and join']
for a,v in top.most_common():
    print(f'{v:6d} {100*v/base:5.1f}% {a}')
    for (x,b),w in sub.most_common():
        if x==a and b: print(f'        {w:6d} {100*w/base:5.1f}%   {b}')
