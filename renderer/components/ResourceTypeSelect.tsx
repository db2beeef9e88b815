/** A choice of the kind of resource: who or what does a piece of work. */
import { resourceTypes } from '../../shared/resources/activity.js';
import { useT, type Translate } from '../i18n/index.js';
import type { ControlProps } from './Field.js';

export type ResourceType = (typeof resourceTypes)[number];

interface ResourceTypeSelectProps extends ControlProps {
  value: ResourceType;
  onChange: (type: ResourceType) => void;
}

export function ResourceTypeSelect({ value, onChange, ...control }: ResourceTypeSelectProps) {
  const t = useT();
  return (
    <select {...control} value={value} onChange={(event) => onChange(event.target.value as ResourceType)}>
      {resourceTypes.map((type) => (
        <option key={type} value={type}>
          {resourceTypeName(type, t)}
        </option>
      ))}
    </select>
  );
}

export function resourceTypeName(type: ResourceType, t: Translate): string {
  return t(`common.resourceType.${type}`);
}
