/**
 * The scenario routes (docs/API.md "Scenarios"): fork the live plan, list and throw away
 * scenarios, compare one with the live plan, promote one onto it. They always act on the live
 * plan, whatever `x-planner-scenario` says (scenario-context.ts); every other route runs inside
 * the scenario that header names.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { isUuid, uuidv7 } from '../../../shared/ids.js';
import {
  compareScenarioOperation,
  createScenarioOperation,
  deleteScenarioOperation,
  listScenariosOperation,
  maxScenarios,
  promoteScenarioOperation,
  resolutions,
  type PromoteResult,
  type Resolution,
  type ScenarioInfo,
} from '../../../shared/operations/scenarios.js';
import type { RecordStore } from '../../store/record-store.js';
import type { ScenarioBook } from '../../store/scenario-book.js';
import { asCommandOnRecords, checkDescription, commandFor } from '../commands/request-command.js';
import { operationRoute } from '../conventions/operation-route.js';
import { ApiError } from '../errors.js';
import { compareScenario } from './compare.js';
import { clashesOf, planPromote, writePromote } from './promote.js';
import { unknownScenario } from './scenario-context.js';

type Book = ScenarioBook<RecordStore>;

const resolutionNames: ReadonlySet<string> = new Set(resolutions);

function bookOf(request: FastifyRequest): Book {
  return request.ctx.records.scenarios;
}

/** The scenario a path names, or a 404 (an id that is no UUID names none). */
async function scenarioOf(book: Book, id: string | undefined): Promise<ScenarioInfo> {
  const scenario = isUuid(id) ? await book.get(id.toLowerCase()) : undefined;
  if (!scenario) throw unknownScenario();
  return scenario;
}

async function recordsOf(book: Book, id: string): Promise<RecordStore> {
  const records = await book.records(id);
  if (!records) throw unknownScenario();
  return records;
}

/** `resolve`'s entries, each a record id and one of mine, theirs, leave: every problem one 422 item. */
function checkResolve(resolve: Record<string, unknown> | undefined): Record<string, Resolution> {
  const problems: FieldProblem[] = [];
  const checked: Record<string, Resolution> = {};
  for (const [id, value] of Object.entries(resolve ?? {})) {
    const field = `resolve.${id}`;
    if (!isUuid(id)) problems.push({ field, description: `${field}: the key must be the id of a clashing record.` });
    else if (typeof value !== 'string' || !resolutionNames.has(value))
      problems.push({ field, description: `${field} must be one of ${resolutions.join(', ')}.` });
    // Checked just above: one of the resolutions.
    else checked[id.toLowerCase()] = value as Resolution;
  }
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  return checked;
}

export async function scenarioRoutes(app: FastifyInstance): Promise<void> {
  operationRoute(app, createScenarioOperation, async (request, _reply, input) => {
    const description = input.description?.trim() || null;
    const made = await bookOf(request).fork({ id: uuidv7(), name: input.name.trim(), description }, maxScenarios);
    if (!made) throw ApiError.conflict(`This environment keeps ${maxScenarios} scenarios at most: throw one away first.`);
    return made;
  });

  operationRoute(app, listScenariosOperation, async (request) => ({ data: await bookOf(request).list() }));

  operationRoute(app, deleteScenarioOperation, async (request, reply) => {
    const book = bookOf(request);
    const scenario = await scenarioOf(book, request.params.id);
    if (!(await book.drop(scenario.id))) throw unknownScenario();
    return reply.code(204).send();
  });

  operationRoute(app, compareScenarioOperation, async (request) => {
    const book = bookOf(request);
    const scenario = await scenarioOf(book, request.params.id);
    const inScenario = await recordsOf(book, scenario.id);
    const comparison = await compareScenario(scenario, request.ctx.records, inScenario);
    const changes = await book.changes(scenario.id);
    // A transaction that only reads: the clashes as a promote now would find them.
    const clashes = await request.ctx.records.transaction(async (tx) => clashesOf(await planPromote(tx, changes, scenario.base)));
    return { ...comparison, clashes };
  });

  operationRoute(app, promoteScenarioOperation, async (request, reply, input): Promise<PromoteResult> => {
    const resolve = checkResolve(input.resolve);
    const book = bookOf(request);
    const scenario = await scenarioOf(book, request.params.id);
    const changes = await book.changes(scenario.id);
    const meta = commandFor(request, `Promote scenario ${scenario.name}`.slice(0, 200));
    if (input.description !== undefined) meta.description = checkDescription(input.description, 'description');
    const counts = await asCommandOnRecords(
      request,
      reply,
      meta,
      async (tx) => {
        const planned = await planPromote(tx, changes, scenario.base);
        const open = clashesOf(planned).filter((clash) => !resolve[clash.id]);
        if (open.length > 0)
          throw new ApiError(
            'conflict',
            open.map((clash) => ({ description: clash.description, field: `resolve.${clash.id}` })),
          );
        return writePromote(tx, planned, resolve);
      },
      { wroteNothing: (answer) => answer.changed === 0 },
    );
    return { command_id: counts.changed === 0 ? null : meta.id, changed: counts.changed, left_out: counts.leftOut };
  });
}
