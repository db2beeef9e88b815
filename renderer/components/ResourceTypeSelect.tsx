/** A choice of the kind of resource: who or what does a piece of work. */
import { resourceTypes } from '../../shared/resources/activity.js';
import type { ControlProps } from './Field.js';

export type ResourceType = (typeof resourceTypes)[number];

const names: Readonly<Record<ResourceType, string>> = { employee: 'Employee', machine: 'Machine', cell: 'Cell' };

interface ResourceTypeSelectProps extends ControlProps {
  value: ResourceType;
  onChange: (type: ResourceType) => void;
}

export function ResourceTypeSelect({ value, onChange, ...control }: ResourceTypeSelectProps) {
  return (
    <select {...control} value={value} onChange={(event) => onChange(event.target.value as ResourceType)}>
      {resourceTypes.map((type) => (
        <option key={type} value={type}>
          {names[type]}
        </option>
      ))}
    </select>
  );
}

export function resourceTypeName(type: ResourceType): string {
  return names[type];
}
