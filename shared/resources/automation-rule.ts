import { defineResource, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/**
 * What an automation rule does when a card's status changes (docs/API.md "Automation rules"):
 *  - set_next_status: the card enters `status_id` (null: an exit status) and the cards of the
 *    collection's next dependent stage get `next_status_id`;
 *  - notify: the card is finished (enters an exit status) and a notice goes to `user_id`, or to
 *    the users linked to the next stage's card resources (`notify: next_resource`);
 *  - lock: the card is locked (no moves) once it leaves its entry status, and unlocked when it
 *    goes back to an entry status.
 */
export const automationActions = ['set_next_status', 'notify', 'lock'] as const;
export type AutomationAction = (typeof automationActions)[number];
export const automationRecipients = ['user', 'next_resource'] as const;

/** A board's automation rule, a record that syncs (docs/API.md "Automation rules"). */
export const automationRuleSpec = defineResource({
  name: 'automation_rule',
  title: 'AutomationRule',
  fields: {
    id: idField,
    board_id: { type: 'uuid', required: true, references: 'board', description: 'The board whose cards the rule watches.' },
    name: { type: 'string', nullable: true, maxLength: 150 },
    action: { type: 'enum', enum: automationActions, required: true },
    active: { type: 'boolean', default: true, description: 'An inactive rule is kept but does nothing.' },
    status_id: {
      type: 'uuid',
      nullable: true,
      references: 'status',
      description: 'set_next_status: the status a card enters that fires the rule; null: any exit status of the board.',
    },
    next_status_id: {
      type: 'uuid',
      nullable: true,
      references: 'status',
      description: "set_next_status: the status the next dependent stage's cards get (required there).",
    },
    notify: {
      type: 'enum',
      enum: automationRecipients,
      nullable: true,
      description: "notify: `user` (the planner named in user_id) or `next_resource` (users linked to the next stage's card resources).",
    },
    user_id: { type: 'uuid', nullable: true, references: 'user', description: 'notify with notify `user`: who is told.' },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type AutomationRule = RecordOf<typeof automationRuleSpec>;
export type AutomationRuleInput = InputOf<typeof automationRuleSpec>;

/**
 * A notice a notify rule left for a user when a card was finished (docs/API.md "Automation
 * rules"): listed in the exception inbox as kind `automation_notice` for its user (null: for
 * everyone), so the notifications the user chose tell it. Written by the rule, never by a
 * client; it syncs like the card write that made it.
 */
export const automationNoticeSpec = defineResource({
  name: 'automation_notice',
  title: 'AutomationNotice',
  fields: {
    id: idField,
    board_id: { type: 'uuid', readOnly: true, references: 'board' },
    rule_id: { type: 'uuid', readOnly: true, references: 'automation_rule' },
    card_id: { type: 'uuid', readOnly: true, references: 'card' },
    collection_id: { type: 'uuid', readOnly: true, references: 'collection' },
    user_id: { type: 'uuid', nullable: true, readOnly: true, references: 'user', description: 'Who is told; null: everyone.' },
    card_name: { type: 'string', readOnly: true, maxLength: 500, description: 'The card as the planner names it, when it finished.' },
    next_stage: {
      type: 'string',
      nullable: true,
      readOnly: true,
      maxLength: 150,
      description: 'The next stage, which can start now; null: none.',
    },
    text: { type: 'string', readOnly: true, maxLength: 1000, description: 'The notice in English.' },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type AutomationNotice = RecordOf<typeof automationNoticeSpec>;
