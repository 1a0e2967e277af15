/** Every read and write is scoped to one environment of one organization (the API key's). */
export interface EnvironmentScope {
  readonly organizationId: string;
  readonly environmentId: string;
}
