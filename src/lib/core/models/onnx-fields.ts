// The ONNX protobuf's field numbers and element types the graph rewrites write with (onnx.proto3:
// NodeProto, AttributeProto, GraphProto, TensorProto), in one place, so the lens and the attention
// rewrites (which append If branches to a graph) name them once.
export const FLOAT = 1;
export const BOOL = 9;
export const NODE_INPUT = 1;
export const NODE_OUTPUT = 2;
export const NODE_NAME = 3;
export const NODE_OP_TYPE = 4;
export const NODE_ATTRIBUTE = 5;
export const ATTRIBUTE_NAME = 1;
export const ATTRIBUTE_T = 5;
export const ATTRIBUTE_G = 6;
export const ATTRIBUTE_TYPE = 20;
export const ATTRIBUTE_TYPE_TENSOR = 4;
export const ATTRIBUTE_TYPE_GRAPH = 5;
export const GRAPH_NAME = 2;
export const GRAPH_INPUT = 11;
export const TENSOR_DIMS = 1;
export const TENSOR_DATA_TYPE = 2;
export const TENSOR_NAME = 8;
export const TENSOR_RAW_DATA = 9;
