/**
 * Operators' push subscriptions as other domains reach them (the console's sign-out everywhere and
 * new password end them): `push_subscriptions` is owned by push/, whose repository alone holds its SQL.
 */
export { deleteAllOperatorPushSubscriptions as forgetOperatorDevices } from "./push-subscription-repository.js";
