// Shared building blocks of every page: import from "../../components".
export { ApiErrorAlert } from "./ApiErrorAlert";
export { FormErrorSummary } from "./FormErrorSummary";
export { ColorSchemeToggle } from "./ColorSchemeToggle";
export { ConfirmModal } from "./ConfirmModal";
export { CopyButton } from "./CopyButton";
export { DialogActions } from "./DialogActions";
export { EmptyState } from "./EmptyState";
export { PageHeader } from "./PageHeader";
export { SelectAllCheckbox, SelectRowCheckbox, useSelection, withCount, type Selection } from "./Selection";
export { ListPagination, useClampedPage, useListParams, type ListParams } from "./Pagination";
export { pageFrom } from "../lib/page-param";
export { ApiError } from "./ApiError";
export { Time, useAbsolute, useDatetimeSettings, useNow } from "./Time";
export { useParamOnce } from "./useParamOnce";
export { formatAbsolute, formatRelative, type DatetimeSettings } from "../lib/datetime";
export { TableScroll } from "./TableScroll";
export { ListSearch, ListView, type PageEnvelope } from "./ListView";
export { Notice } from "./Notice";
