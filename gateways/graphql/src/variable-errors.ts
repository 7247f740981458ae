/**
 * Variables in the rule table's words. graphql-js coerces variables before any rule of ours runs
 * and words its refusals its own way ("Value "BOGUS" does not exist in "RetailDomain" enum"); a
 * variable given as an operation's argument is that operation's parameter, so its refusal is the
 * one REST and MCP give for the same value (docs/contract.md, Errors), naming the argument.
 */
import { RULE_MESSAGES } from '@retail/contract';
import { type Parameter, type ParameterError, displayName, parameterValueError } from '@retail/gateway-shared';
import { type DefinitionNode, type GraphQLError, type GraphQLSchema, Kind, type OperationDefinitionNode, TypeInfo, type ValueNode, getNamedType, isInputObjectType, visit, visitWithTypeInfo } from './graphql.js';

/** Like an unknown REST query parameter, a variable the operation does not declare is refused. */
export function undeclaredVariables(operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>>): ParameterError[] {
  const declared = new Set((operation.variableDefinitions ?? []).map((d) => d.variable.name.value));
  return Object.keys(variables)
    .filter((name) => !declared.has(name))
    .map((name) => ({ message: RULE_MESSAGES.unknownParameter(displayName(name)), path: [name] }));
}

/** The parameter each variable is given as (`retailSeller(sellerId: $id)`: id → sellerId), in the operation and its fragments. */
function parametersByVariable(schema: GraphQLSchema, definitions: readonly DefinitionNode[]): Map<string, Parameter> {
  const found = new Map<string, Parameter>();
  const note = (value: ValueNode, parameter: unknown) => {
    if (value.kind === Kind.VARIABLE && parameter && !found.has(value.name.value)) found.set(value.name.value, parameter as Parameter);
  };
  const typeInfo = new TypeInfo(schema);
  const visitor = visitWithTypeInfo(typeInfo, {
    // The schema's arguments and input fields carry their parameter (arguments.ts), so a variable's rule is theirs.
    Argument(node) {
      note(node.value, typeInfo.getArgument()?.extensions.parameter);
    },
    ObjectField(node) {
      const parent = getNamedType(typeInfo.getParentInputType());
      if (isInputObjectType(parent)) note(node.value, parent.getFields()[node.name.value]?.extensions.parameter);
    },
  });
  for (const definition of definitions) visit(definition, visitor);
  return found;
}

/** graphql-js's coercion errors: the rule the value breaks where the variable is a parameter, its own words otherwise. */
export function coercionErrors(schema: GraphQLSchema, definitions: readonly DefinitionNode[], variables: Readonly<Record<string, unknown>>, errors: readonly GraphQLError[]): ParameterError[] {
  const parameters = parametersByVariable(schema, definitions);
  return errors.map((error) => {
    const node = error.nodes?.[0];
    const variable = node?.kind === Kind.VARIABLE_DEFINITION ? node.variable.name.value : undefined;
    const parameter = variable === undefined ? undefined : parameters.get(variable);
    const message = parameter && parameterValueError(parameter, variables[variable as string], 'graphql');
    if (parameter && message) return { message, path: [parameter.name] };
    return { message: error.message, path: variable === undefined ? [] : [variable] };
  });
}
