/** The bulk-job routes' paths and the registry operations they serve, shared by the routes and the OpenAPI document. */
import { JobService } from '@retail/contract';
import { registryOperation } from '@retail/gateway-shared';

export const CREATE_JOB = registryOperation(JobService.method.createJob.name);
export const GET_JOB = registryOperation(JobService.method.getJob.name);

export const JOBS_PATH = CREATE_JOB.restPath;
export const JOB_RESULTS_PATH = `${GET_JOB.restPath}/results`;
export const JOB_EVENTS_PATH = `${GET_JOB.restPath}/events`;
