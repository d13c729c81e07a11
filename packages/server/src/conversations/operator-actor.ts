/** The signed-in operator acting on a conversation (the console's SignedInOperator, narrowed). */
export interface OperatorActor {
  id: string;
  workspaceId: string;
  role: "admin" | "agent";
  name: string;
}
