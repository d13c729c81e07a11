import pusherModule from "pusher-js";

/**
 * pusher-js, typed as what it is at run time. The package is CommonJS and its `module.exports` is the
 * Pusher class, but its declarations (index.d.ts) say `export default class`, so under NodeNext an ES
 * module's default import is typed as the whole declaration module, which can be neither constructed
 * nor named as a type (pusher/pusher-js#791). That module's `default` member is the class's type.
 */
type PusherClass = typeof pusherModule.default;

/** A pusher-js client (its Node build). */
export type Pusher = InstanceType<PusherClass>;

// Sound: the default import of a CommonJS module is its `module.exports`, which pusher-js sets to the
// class itself (it has no `default` property at run time); only the declarations say otherwise.
export const Pusher = pusherModule as unknown as PusherClass;
