import { Icon as BaseIcon, type IconProps } from '../../ui/icons';

/** Icons of the management screens, drawn like ui/icons.tsx (stroke, currentColor, no requests). */
const Icon = (p: IconProps) => <BaseIcon size={18} {...p} />;

export const TrashIcon = (p: IconProps) => <Icon {...p}><path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" /></Icon>;
export const RefreshIcon = (p: IconProps) => <Icon {...p}><path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" /></Icon>;
export const SearchIcon = (p: IconProps) => <Icon {...p}><circle cx="11" cy="11" r="7" /><path d="m20 20-3.5-3.5" /></Icon>;
export const ChevronLeftIcon = (p: IconProps) => <Icon {...p}><path d="m15 6-6 6 6 6" /></Icon>;
export const ChevronRightIcon = (p: IconProps) => <Icon {...p}><path d="m9 6 6 6-6 6" /></Icon>;
export const EditIcon = (p: IconProps) => <Icon {...p}><path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" /></Icon>;
export const UploadIcon = (p: IconProps) => <Icon {...p}><path d="M12 16V4M7 9l5-5 5 5M4 20h16" /></Icon>;
export const UserPlusIcon = (p: IconProps) => <Icon {...p}><circle cx="10" cy="8" r="3.5" /><path d="M3 20c0-3.9 3.1-6.5 7-6.5s7 2.6 7 6.5M19 8v6M16 11h6" /></Icon>;
