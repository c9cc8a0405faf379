/**
 * etcd's v3 gRPC API over the simulated members, for real clients (etcdctl, clientv3, the etcd3
 * npm package): `kubesim serve --etcd-listen 127.0.0.1:PORT`. Each member gets its own loopback
 * listener, advertised as its client URL in MemberList, and answers as that member (its Raft
 * figures in Status, its own MVCC state for serializable reads, its Raft proposals for writes).
 * A member stopped through the engine's fault API closes its listener, as a killed etcd process
 * does, and listens again once started.
 *
 * Auth is enabled with one user, root, whose random password the caller generates: Authenticate
 * (a Raft round, as in etcd 3.4) returns a simple token that KV, Watch and the admin maintenance
 * calls require, answered with etcd's texts when it is missing or wrong; MemberList, Status,
 * Alarm, MoveLeader, Compact and the lease calls need none, as in etcd 3.4.
 *
 * Every request goes through `drive`: from outside the simulation it moves virtual time as far
 * as the latency model makes the request take (a running Pacer moves it anyway).
 *
 * @grpc/grpc-js and @grpc/proto-loader are loaded only here, when an etcd listener is asked for.
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type * as GrpcJs from '@grpc/grpc-js';
import type * as ProtoLoader from '@grpc/proto-loader';
import type { Clock } from '../engine/clock';
import type { EtcdCluster } from '../engine/store/etcdserver/cluster';
import type { EtcdAlarmType } from '../engine/store/etcdserver/member';
import { MemberServer, hexId, type MemberWatch } from '../engine/store/etcdserver/server';
import { MAX_GRPC_MESSAGE_BYTES, StoreError, type WatchResponse } from '../engine/store/types';
import {
  deleteRangeRequest,
  deleteRangeResponse,
  header,
  int64,
  putRequest,
  putResponse,
  rangeRequest,
  rangeResponse,
  txnRequest,
  txnResponse,
  watchCreateRequest,
  watchEvent,
  type Msg,
} from './codec';
import { own } from '../engine/api/own';
import { AuthorityFixingStream } from './authority';
import { AUTH, AuthError, Code, Unsupported, toStatus } from './errors';

export const ROOT_USER = 'root';
/** etcd's simple tokens expire after five idle minutes (simpleTokenTTL). */
const TOKEN_TTL_MS = 5 * 60 * 1000;
/** Watches one stream may hold: input stays bounded. */
const MAX_WATCHES_PER_STREAM = 10_000;
/** How often a listener checks whether its member was stopped or started (wall ms). */
const LIFECYCLE_POLL_MS = 100;

export interface EtcdEndpointOptions {
  cluster: EtcdCluster;
  clock: Clock;
  /** Awaits work from outside the simulation (Cluster.drive). */
  drive: <T>(work: Promise<T>) => Promise<T>;
  /** 127.0.0.1 (only loopback is served). */
  host?: string;
  /** The first member's port; the others take the next ones. 0: each member a free port. */
  port: number;
  /** root's password. */
  rootPassword: string;
}

export interface EtcdMemberEndpoint {
  readonly name: string;
  readonly url: string;
  readonly port: number;
}

export interface EtcdEndpoints {
  readonly members: readonly EtcdMemberEndpoint[];
  /** Every member's client URL, comma-separated (etcdctl --endpoints). */
  readonly endpoints: string;
  close(): Promise<void>;
}

/** A random password for root: 24 bytes of crypto.randomBytes, base64url (32 characters). */
export function randomPassword(): string {
  return randomBytes(24).toString('base64url');
}

function protoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'third_party', 'etcd');
    if (existsSync(join(candidate, 'proto', 'etcd', 'etcdserver', 'etcdserverpb', 'rpc.proto'))) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error("kubesim: etcd's .proto files (third_party/etcd) were not found");
    dir = up;
  }
}

interface Loaded {
  grpc: typeof GrpcJs;
  services: Record<'KV' | 'Watch' | 'Lease' | 'Cluster' | 'Maintenance' | 'Auth', GrpcJs.ServiceDefinition>;
}

let loaded: Loaded | undefined;

/** etcd's services from its own rpc.proto (v3.4.23), decoded the way codec.ts expects. */
export function loadEtcdServices(): Loaded {
  if (loaded) return loaded;
  const grpc = require('@grpc/grpc-js') as typeof GrpcJs;
  const protoLoader = require('@grpc/proto-loader') as typeof ProtoLoader;
  const root = protoRoot();
  const def = protoLoader.loadSync('etcd/etcdserver/etcdserverpb/rpc.proto', {
    includeDirs: [join(root, 'proto'), join(root, 'stubs')],
    keepCase: true,
    longs: String,
    enums: Number,
    defaults: false,
    oneofs: true,
  });
  const service = (name: string): GrpcJs.ServiceDefinition => {
    const found = Object.hasOwn(def, `etcdserverpb.${name}`) ? own(def, `etcdserverpb.${name}`) : undefined;
    if (!found) throw new Error(`kubesim: etcd's rpc.proto has no service ${name}`);
    return found as GrpcJs.ServiceDefinition;
  };
  loaded = {
    grpc,
    services: { KV: service('KV'), Watch: service('Watch'), Lease: service('Lease'), Cluster: service('Cluster'), Maintenance: service('Maintenance'), Auth: service('Auth') },
  };
  return loaded;
}

/** The auth store: root only; simple tokens, shared by every member (etcd applies them on each through Raft). */
class Tokens {
  private readonly tokens = new Map<string, { user: string; lastUsed: number }>();
  private readonly digest: Buffer;

  constructor(
    password: string,
    private readonly clock: Clock,
  ) {
    this.digest = createHash('sha256').update(password).digest();
  }

  checkPassword(name: string, password: string): boolean {
    const given = createHash('sha256').update(password).digest();
    // Compared in constant time whatever the name, so that timing tells nothing.
    return timingSafeEqual(given, this.digest) && name === ROOT_USER;
  }

  /** etcd's simple token: 16 random letters, a dot, the raft index the Authenticate was applied at. */
  issue(user: string, index: number): string {
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const bytes = randomBytes(16);
    let token = '';
    for (const b of bytes) token += letters[b % letters.length];
    token += `.${index}`;
    this.tokens.set(token, { user, lastUsed: this.clock.now() });
    return token;
  }

  /** The user a token stands for; undefined without one; AUTH invalid-token errors for a bad one. */
  user(md: GrpcJs.Metadata, admin = false): string | undefined {
    const values = md.get('token');
    if (values.length === 0) return undefined;
    const token = String(values[0]);
    const entry = this.tokens.get(token);
    const now = this.clock.now();
    if (!entry || now - entry.lastUsed > TOKEN_TTL_MS) {
      this.tokens.delete(token);
      throw admin ? AUTH.adminInvalidToken() : AUTH.invalidToken();
    }
    entry.lastUsed = now;
    return entry.user;
  }

  requireUser(md: GrpcJs.Metadata): string {
    const user = this.user(md);
    if (!user) throw AUTH.userEmpty();
    return user;
  }

  requireAdmin(md: GrpcJs.Metadata): void {
    if (!this.user(md, true)) throw AUTH.adminUserEmpty();
  }
}

type Unary = (request: Msg, md: GrpcJs.Metadata) => Promise<Msg>;

const ALARMS: Record<number, EtcdAlarmType | undefined> = { 1: 'NOSPACE', 2: 'CORRUPT' };
const ALARM_NUMBER: Record<EtcdAlarmType, number> = { NOSPACE: 1, CORRUPT: 2 };

class MemberListener {
  private server: GrpcJs.Server | undefined;
  private tcp: NetServer | undefined;
  private readonly sockets = new Set<Socket>();
  private starting: Promise<void> | undefined;
  port = 0;

  constructor(
    readonly name: string,
    private readonly api: MemberServer,
    private readonly facade: EtcdFacade,
  ) {}

  /** The client URL, as etcd advertises it. */
  get url(): string {
    return `http://${this.facade.host}:${this.port}`;
  }

  /**
   * Listens (again) on its port; the first time, on `port` (0: a free one). grpc-js serves the
   * member on a loopback port of its own; each connection accepted here is relayed to it, the
   * client's bytes through AuthorityFixingStream (see authority.ts), the server's unchanged.
   */
  listen(port = this.port): Promise<void> {
    if (this.server) return Promise.resolve();
    this.starting ??= new Promise<void>((resolve, reject) => {
      const { grpc } = loadEtcdServices();
      const server = new grpc.Server({
        'grpc.max_receive_message_length': MAX_GRPC_MESSAGE_BYTES,
        'grpc.max_concurrent_streams': 1000,
      });
      this.facade.register(server, this.api);
      const fail = (err: Error): void => {
        this.starting = undefined;
        server.forceShutdown();
        reject(err);
      };
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (bindErr, grpcPort) => {
        if (bindErr) return fail(bindErr);
        const tcp = createServer((socket) => this.relay(socket, grpcPort));
        tcp.once('error', fail);
        tcp.listen(port, this.facade.host, () => {
          this.starting = undefined;
          this.port = (tcp.address() as AddressInfo).port;
          this.server = server;
          this.tcp = tcp;
          resolve();
        });
      });
    });
    return this.starting;
  }

  /** One client connection, relayed to grpc-js's loopback port; either side closing closes both. */
  private relay(socket: Socket, grpcPort: number): void {
    const upstream = connect(grpcPort, '127.0.0.1');
    const fix = new AuthorityFixingStream();
    this.sockets.add(socket);
    this.sockets.add(upstream);
    const close = (): void => {
      socket.destroy();
      upstream.destroy();
      fix.destroy();
      this.sockets.delete(socket);
      this.sockets.delete(upstream);
    };
    for (const s of [socket, upstream, fix]) {
      s.on('error', close);
      s.on('close', close);
    }
    socket.setNoDelay(true);
    upstream.setNoDelay(true);
    socket.pipe(fix).pipe(upstream);
    upstream.pipe(socket);
  }

  /** The member's process is gone: its connections drop and its port refuses new ones. */
  shutdown(): void {
    this.tcp?.close();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.server?.forceShutdown();
    this.server = undefined;
    this.tcp = undefined;
  }

  /** Follows the member: closed while it is stopped, listening while it runs. */
  sync(): void {
    if (this.starting) return;
    if (!this.api.isRunning() && this.server) this.shutdown();
    else if (this.api.isRunning() && !this.server && this.port) void this.listen().catch(() => undefined);
  }
}

class EtcdFacade {
  readonly tokens: Tokens;
  readonly host: string;
  readonly listeners: MemberListener[] = [];

  constructor(private readonly options: EtcdEndpointOptions) {
    this.host = options.host ?? '127.0.0.1';
    this.tokens = new Tokens(options.rootPassword, options.clock);
  }

  clientUrls(name: string): string[] {
    const l = this.listeners.find((x) => x.name === name);
    return l && l.port ? [l.url] : [];
  }

  private run(work: () => Promise<Msg>): Promise<Msg> {
    let p: Promise<Msg>;
    try {
      p = work();
    } catch (err) {
      p = Promise.reject(err);
    }
    return this.options.drive(p);
  }

  private unary(fn: Unary): GrpcJs.handleUnaryCall<Msg, Msg> {
    return (call, callback) => {
      this.run(() => fn(call.request, call.metadata)).then(
        (response) => callback(null, response),
        (err: unknown) => callback(toStatus(err)),
      );
    };
  }

  private unsupported(rpc: string): GrpcJs.handleUnaryCall<Msg, Msg> {
    return (_call, callback) => callback(toStatus(new Unsupported(rpc)));
  }

  register(server: GrpcJs.Server, api: MemberServer): void {
    const { services } = loadEtcdServices();
    const h = (revision?: number): Msg => header(api.header(revision));
    const tokens = this.tokens;

    /** A key-value call: only a user may make it (with auth on), and its response's header has the revision it read or wrote. */
    const kv = <R extends { header: { revision: number } }>(call: (req: Msg) => Promise<R>, response: (r: R, header: Msg) => Msg) =>
      this.unary(async (req, md) => {
        tokens.requireUser(md);
        const r = await call(req);
        return response(r, h(r.header.revision));
      });

    server.addService(services.KV, {
      Range: kv((req) => api.range(rangeRequest(req)), rangeResponse),
      Put: kv((req) => api.put(putRequest(req)), putResponse),
      DeleteRange: kv((req) => api.deleteRange(deleteRangeRequest(req)), deleteRangeResponse),
      Txn: kv((req) => api.txn(txnRequest(req)), txnResponse),
      Compact: this.unary(async (req, md) => {
        tokens.user(md);
        const r = await api.compact(int64(req.revision));
        return { header: h(r.header.revision) };
      }),
    });

    server.addService(services.Watch, { Watch: (call: GrpcJs.ServerDuplexStream<Msg, Msg>) => this.watchStream(call, api) });

    server.addService(services.Lease, {
      LeaseGrant: this.unary(async (req, md) => {
        tokens.user(md);
        const r = await api.leaseGrant(int64(req.TTL), int64(req.ID));
        return { header: h(), ID: r.id, TTL: r.ttl };
      }),
      LeaseRevoke: this.unary(async (req, md) => {
        const user = tokens.user(md);
        const id = int64(req.ID);
        // Revoking deletes the lease's keys: etcd checks the user may write them.
        if (!user && (await api.leaseTimeToLive(id, true)).keys.length > 0) throw AUTH.userEmpty();
        await api.leaseRevoke(id);
        return { header: h() };
      }),
      LeaseKeepAlive: (call: GrpcJs.ServerDuplexStream<Msg, Msg>) => this.keepAliveStream(call, api),
      LeaseTimeToLive: this.unary(async (req, md) => {
        tokens.user(md);
        const id = int64(req.ID);
        const r = await api.leaseTimeToLive(id, req.keys === true);
        return { header: h(r.revision), ID: id, TTL: r.ttl, grantedTTL: r.grantedTtl, keys: r.keys.map((k) => Buffer.from(k, 'utf8')) };
      }),
      LeaseLeases: this.unary(async (_req, md) => {
        tokens.user(md);
        const ids = await api.leaseLeases();
        return { header: h(), leases: ids.map((ID) => ({ ID })) };
      }),
    });

    server.addService(services.Cluster, {
      MemberList: this.unary(async () => {
        const members = await api.memberList();
        return {
          header: h(),
          members: members.map((m) => ({ ID: m.id, name: m.name, peerURLs: m.peerUrls, clientURLs: m.clientUrls, isLearner: m.isLearner })),
        };
      }),
      MemberAdd: this.unsupported('MemberAdd'),
      MemberRemove: this.unsupported('MemberRemove'),
      MemberUpdate: this.unsupported('MemberUpdate'),
      MemberPromote: this.unsupported('MemberPromote'),
    });

    server.addService(services.Maintenance, {
      Alarm: this.unary(async (req, md) => {
        tokens.user(md);
        const action = typeof req.action === 'number' ? req.action : 0;
        let alarms;
        if (action === 0) alarms = await api.alarmList();
        else {
          const memberId = hexId(String(req.memberID ?? '0'));
          const alarm = ALARMS[typeof req.alarm === 'number' ? req.alarm : 0];
          // etcd answers an unknown alarm or member with nothing changed.
          alarms = memberId && alarm ? await api.alarm(action === 1 ? 'activate' : 'deactivate', memberId, alarm) : [];
        }
        return { header: h(), alarms: alarms.map((a) => ({ memberID: BigInt(`0x${a.memberId}`).toString(10), alarm: ALARM_NUMBER[a.alarm] })) };
      }),
      Status: this.unary(async () => {
        const s = await api.status();
        return {
          header: header(s.header),
          version: s.version,
          dbSize: s.dbSize,
          leader: s.leader,
          raftIndex: s.raftIndex,
          raftTerm: s.raftTerm,
          raftAppliedIndex: s.raftAppliedIndex,
          errors: [...s.errors],
          dbSizeInUse: s.dbSizeInUse,
          isLearner: s.isLearner,
        };
      }),
      Defragment: this.unary(async (_req, md) => {
        tokens.requireAdmin(md);
        await api.defragment();
        return { header: h() };
      }),
      MoveLeader: this.unary(async (req) => {
        const target = hexId(String(req.targetID ?? '0'));
        if (!target) throw new StoreError('badLeaderTransferee');
        await api.moveLeader(target);
        return { header: h() };
      }),
      Hash: this.unsupported('Hash'),
      // etcd 3.4's authMaintenanceServer lets only root hash the store.
      HashKV: this.unary(async (req, md) => {
        tokens.requireAdmin(md);
        const r = await api.hashKV(Number(req.revision ?? 0));
        return { header: header(r.header), hash: r.hash, compact_revision: r.compactRevision };
      }),
      Snapshot: (call: GrpcJs.ServerWritableStream<Msg, Msg>) => call.emit('error', toStatus(new Unsupported('Snapshot'))),
    });

    const admin = (fn: (req: Msg) => Msg): GrpcJs.handleUnaryCall<Msg, Msg> =>
      this.unary(async (req, md) => {
        tokens.requireUser(md);
        return fn(req);
      });
    server.addService(services.Auth, {
      Authenticate: this.unary(async (req) => {
        const name = Buffer.isBuffer(req.name) ? req.name.toString('utf8') : String(req.name ?? '');
        const password = Buffer.isBuffer(req.password) ? req.password.toString('utf8') : String(req.password ?? '');
        if (!tokens.checkPassword(name, password)) throw AUTH.authFailed();
        const index = await api.authenticate(name);
        return { header: h(), token: tokens.issue(name, index) };
      }),
      // Auth is on for good: kubesim's auth store holds root alone.
      AuthEnable: admin(() => ({ header: h() })),
      AuthDisable: this.unsupported('AuthDisable'),
      UserList: admin(() => ({ header: h(), users: [ROOT_USER] })),
      RoleList: admin(() => ({ header: h(), roles: [ROOT_USER] })),
      UserGet: admin((req) => {
        if (String(req.name ?? '') !== ROOT_USER) throw new AuthError(Code.FAILED_PRECONDITION, 'etcdserver: user name not found');
        return { header: h(), roles: [ROOT_USER] };
      }),
      RoleGet: admin((req) => {
        if (String(req.role ?? '') !== ROOT_USER) throw new AuthError(Code.FAILED_PRECONDITION, 'etcdserver: role name not found');
        return { header: h(), perm: [] };
      }),
      UserAdd: this.unsupported('UserAdd'),
      UserDelete: this.unsupported('UserDelete'),
      UserChangePassword: this.unsupported('UserChangePassword'),
      UserGrantRole: this.unsupported('UserGrantRole'),
      UserRevokeRole: this.unsupported('UserRevokeRole'),
      RoleAdd: this.unsupported('RoleAdd'),
      RoleDelete: this.unsupported('RoleDelete'),
      RoleGrantPermission: this.unsupported('RoleGrantPermission'),
      RoleRevokePermission: this.unsupported('RoleRevokePermission'),
    });
  }

  /**
   * etcd's stream interceptor: a stream whose client requires a leader (clientv3's
   * WithRequireLeader, which etcdctl watch uses: metadata hasleader=true) is refused while the
   * member knows none, and ended with "etcdserver: no leader" once it has had none for three
   * election timeouts (`end` then runs). `ok` is false if the stream was refused; `release`
   * unsubscribes.
   */
  private requireLeader(call: GrpcJs.ServerDuplexStream<Msg, Msg>, api: MemberServer, end: () => void): { ok: boolean; release: () => void } {
    const wants = call.metadata.get('hasleader');
    if (wants.length === 0 || String(wants[0]) !== 'true') return { ok: true, release: () => undefined };
    const noLeader = { code: Code.UNAVAILABLE, details: 'etcdserver: no leader' };
    if (!api.hasLeader()) {
      call.emit('error', noLeader);
      return { ok: false, release: () => undefined };
    }
    const release = api.onLeaderLost(() => {
      release();
      end();
      call.emit('error', noLeader);
    });
    return { ok: true, release };
  }

  /** etcd's serverWatchStream: creates, cancels and progress requests in, responses out. */
  private watchStream(call: GrpcJs.ServerDuplexStream<Msg, Msg>, api: MemberServer): void {
    const watches = new Map<number, MemberWatch>();
    let nextId = 0;
    let closed = false;
    const send = (m: Msg): void => {
      if (!closed) call.write(m);
    };
    let release = (): void => undefined;
    const close = (): void => {
      if (closed) return;
      closed = true;
      release();
      for (const w of watches.values()) w.cancel();
      watches.clear();
    };
    const leader = this.requireLeader(call, api, close);
    if (!leader.ok) return;
    release = leader.release;
    const toResponse = (id: number, r: WatchResponse): Msg => ({
      header: header(api.header(r.header.revision)),
      watch_id: id,
      events: r.events.map(watchEvent),
      ...(r.compactRevision ? { compact_revision: r.compactRevision } : {}),
      ...(r.canceled ? { canceled: true, cancel_reason: r.cancelReason ?? '' } : {}),
    });
    const create = (req: Msg): void => {
      let user: string | undefined;
      let refusal: string | undefined;
      try {
        user = this.tokens.user(call.metadata);
        if (!user) refusal = 'rpc error: code = InvalidArgument desc = etcdserver: user name is empty';
      } catch {
        refusal = 'rpc error: code = Unauthenticated desc = etcdserver: invalid auth token';
      }
      if (refusal) {
        send({ header: header(api.header()), watch_id: -1, created: true, canceled: true, cancel_reason: refusal });
        return;
      }
      let request;
      try {
        request = watchCreateRequest(req);
      } catch (err) {
        send({ header: header(api.header()), watch_id: -1, created: true, canceled: true, cancel_reason: toStatus(err).details });
        return;
      }
      const asked = int64(req.watch_id);
      if (watches.size >= MAX_WATCHES_PER_STREAM || (asked !== 0 && watches.has(asked)) || !api.isRunning()) {
        const reason = !api.isRunning() ? 'etcdserver: server stopped' : asked !== 0 && watches.has(asked) ? 'mvcc: duplicate watch ID provided' : 'mvcc: too many watchers on this stream';
        send({ header: header(api.header()), watch_id: -1, created: true, canceled: true, cancel_reason: reason });
        return;
      }
      let id = asked;
      if (id === 0) {
        while (watches.has(nextId)) nextId++;
        id = nextId++;
      }
      send({ header: header(api.header()), watch_id: id, created: true });
      const w = api.watch(
        request,
        (r) => {
          if (r.canceled) watches.delete(id);
          send(toResponse(id, r));
        },
        () => {
          // The member stopped: its listener closes every connection.
          watches.delete(id);
        },
      );
      watches.set(id, w);
    };
    call.on('data', (req: Msg) => {
      if (closed) return;
      try {
        if (req.create_request) create(req.create_request as Msg);
        else if (req.cancel_request) {
          const id = int64((req.cancel_request as Msg).watch_id);
          const w = watches.get(id);
          if (w) {
            w.cancel();
            watches.delete(id);
            send({ header: header(api.header()), watch_id: id, canceled: true });
          }
        } else if (req.progress_request) {
          // etcd 3.4 answers at once with the member's revision, for every watch of the stream.
          send({ header: header(api.header()), watch_id: -1 });
        }
      } catch (err) {
        closed = true;
        for (const w of watches.values()) w.cancel();
        call.emit('error', toStatus(err));
      }
    });
    call.on('end', () => {
      close();
      call.end();
    });
    call.on('cancelled', close);
    call.on('error', close);
    call.on('close', close);
  }

  /** LeaseKeepAlive: one response per request, TTL 0 for a lease that is gone. */
  private keepAliveStream(call: GrpcJs.ServerDuplexStream<Msg, Msg>, api: MemberServer): void {
    let closed = false;
    const leader = this.requireLeader(call, api, () => (closed = true));
    if (!leader.ok) return;
    call.on('close', leader.release);
    call.on('data', (req: Msg) => {
      if (closed) return;
      let id: number;
      try {
        this.tokens.user(call.metadata);
        id = int64(req.ID);
      } catch (err) {
        closed = true;
        call.emit('error', toStatus(err));
        return;
      }
      this.options.drive(api.leaseKeepAlive(id)).then(
        (r) => {
          if (!closed) call.write({ header: header(api.header(r.revision)), ID: id, TTL: r.ttl });
        },
        (err: unknown) => {
          if (closed) return;
          closed = true;
          call.emit('error', toStatus(err));
        },
      );
    });
    call.on('end', () => {
      closed = true;
      call.end();
    });
    call.on('cancelled', () => (closed = true));
    call.on('error', () => (closed = true));
  }
}


/** Starts one listener per simulated member. */
export async function startEtcdEndpoints(options: EtcdEndpointOptions): Promise<EtcdEndpoints> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new Error(`kubesim serves etcd on 127.0.0.1 only, not ${host}`);
  if (!Number.isInteger(options.port) || options.port < 0 || options.port + options.cluster.members.length - 1 > 65535) {
    throw new Error(`invalid etcd port ${String(options.port)}`);
  }
  if (options.rootPassword.length < 16) throw new Error('the etcd root password must have at least 16 characters');
  loadEtcdServices();
  const facade = new EtcdFacade(options);
  for (const m of options.cluster.members) {
    const api = new MemberServer(options.cluster, m, options.clock, { clientUrls: (name) => facade.clientUrls(name) });
    facade.listeners.push(new MemberListener(m.name, api, facade));
  }
  try {
    for (const [i, l] of facade.listeners.entries()) await l.listen(options.port === 0 ? 0 : options.port + i);
  } catch (err) {
    for (const l of facade.listeners) l.shutdown();
    throw err;
  }
  // A member that was down when the listeners started does not listen until it starts.
  for (const l of facade.listeners) l.sync();
  const poll = setInterval(() => {
    for (const l of facade.listeners) l.sync();
  }, LIFECYCLE_POLL_MS);
  poll.unref();
  return {
    members: facade.listeners.map((l) => ({ name: l.name, url: l.url, port: l.port })),
    endpoints: facade.listeners.map((l) => l.url).join(','),
    async close() {
      clearInterval(poll);
      for (const l of facade.listeners) l.shutdown();
    },
  };
}

export { Code };
