import protobuf from "protobufjs";

/**
 * The few messages of onnx/onnx.proto (field numbers as upstream) needed to write a small
 * inference graph. Written by hand so the tests need no download and no code generator.
 */
const ONNX_SCHEMA = `
syntax = "proto3";
package onnx;

message AttributeProto {
  enum AttributeType { UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; GRAPH = 5; FLOATS = 6; INTS = 7; }
  string name = 1;
  float f = 2;
  int64 i = 3;
  bytes s = 4;
  TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  AttributeType type = 20;
}

message ValueInfoProto {
  string name = 1;
  TypeProto type = 2;
}

message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  repeated AttributeProto attribute = 5;
  string domain = 7;
}

message ModelProto {
  int64 ir_version = 1;
  string producer_name = 2;
  GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}

message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}

message TensorProto {
  repeated int64 dims = 1;
  int32 data_type = 2;
  string name = 8;
  bytes raw_data = 9;
}

message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
  }
  repeated Dimension dim = 1;
}

message TypeProto {
  message Tensor {
    int32 elem_type = 1;
    TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
}

message OperatorSetIdProto {
  string domain = 1;
  int64 version = 2;
}
`;

/** TensorProto.DataType values used here. */
export const OnnxDataType = { FLOAT: 1, INT64: 7 } as const;

/** AttributeProto.AttributeType values used here. */
export const OnnxAttributeType = { INT: 2, INTS: 7 } as const;

export interface OnnxTensor {
  name: string;
  dims: number[];
  data_type: number;
  raw_data: Uint8Array;
}

export interface OnnxValueInfo {
  name: string;
  type: { tensor_type: { elem_type: number; shape: { dim: Array<{ dim_value: number } | { dim_param: string }> } } };
}

export interface OnnxNode {
  op_type: string;
  name: string;
  input: string[];
  output: string[];
  attribute?: Array<{ name: string; type: number; i?: number; ints?: number[] }>;
}

export interface OnnxModel {
  ir_version: number;
  producer_name: string;
  opset_import: Array<{ domain: string; version: number }>;
  graph: { name: string; node: OnnxNode[]; initializer: OnnxTensor[]; input: OnnxValueInfo[]; output: OnnxValueInfo[] };
}

/** Serialises a model to the bytes of an `.onnx` file. */
export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const root = protobuf.parse(ONNX_SCHEMA, { keepCase: true }).root;
  const modelType = root.lookupType("onnx.ModelProto");
  const problem = modelType.verify(model);
  if (problem !== null) throw new Error(`invalid ONNX model: ${problem}`);
  return modelType.encode(modelType.fromObject(model)).finish();
}

/** Little-endian bytes of a float32 tensor, as TensorProto.raw_data expects. */
export function floatTensor(name: string, dims: number[], values: readonly number[]): OnnxTensor {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return { name, dims, data_type: OnnxDataType.FLOAT, raw_data: bytes };
}

/** Little-endian bytes of an int64 tensor. */
export function int64Tensor(name: string, dims: number[], values: readonly number[]): OnnxTensor {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setBigInt64(index * 8, BigInt(value), true));
  return { name, dims, data_type: OnnxDataType.INT64, raw_data: bytes };
}
